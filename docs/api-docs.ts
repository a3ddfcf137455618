/**
 * The API reference, docs/api/, generated from api-extractor's doc models by api-documenter.
 *
 * `npm run docs:api` writes it; `npm run docs:api -- --check` (part of `npm run api:check`) writes it into a temp
 * folder and fails, naming each file, when docs/api/ differs. Both read the doc models that `api-extractor run`
 * writes into `.tmp-api/model/` (api-extractor*.json's `docModel`), so run after `api:check` or `api:update`.
 *
 * api-extractor names every entry's model after package.json (`miniweb-taskgen`); the subpath entries are renamed
 * here so that each gets pages of its own (a package name cannot hold a `/`: `miniweb-taskgen-toolkit` in the models
 * and file names, `miniweb-taskgen/toolkit` in the pages' headings and the index).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const models = path.join(root, '.tmp-api', 'model');
const input = path.join(root, '.tmp-api', 'input');
const committed = path.join(root, 'docs', 'api');
const check = process.argv.includes('--check');
const out = check ? path.join(root, '.tmp-api', 'check') : committed;

/** The doc model files, and the package name each entry is documented under. */
const entries = [
  { file: 'miniweb-taskgen.api.json', name: 'miniweb-taskgen', entry: 'miniweb-taskgen' },
  { file: 'miniweb-taskgen-toolkit.api.json', name: 'miniweb-taskgen-toolkit', entry: 'miniweb-taskgen/toolkit' },
  { file: 'miniweb-taskgen-sandbox.api.json', name: 'miniweb-taskgen-sandbox', entry: 'miniweb-taskgen/sandbox' },
];

fs.rmSync(input, { recursive: true, force: true });
fs.mkdirSync(input, { recursive: true });
for (const e of entries) {
  const file = path.join(models, e.file);
  if (!fs.existsSync(file)) {
    console.error(`${path.relative(root, file)}: missing: run \`npm run api:check\` (it writes the doc models) first`);
    process.exit(1);
  }
  // canonical references start with the package name and `!`: rename them with the package
  const text = fs.readFileSync(file, 'utf8').replaceAll('"miniweb-taskgen!', `"${e.name}!`);
  const model = JSON.parse(text) as { name: string };
  model.name = e.name;
  fs.writeFileSync(path.join(input, e.file), `${JSON.stringify(model, null, 2)}\n`);
}

try {
  // its warnings are TSDoc links it cannot resolve; shown only when it fails
  execFileSync(path.join(root, 'node_modules', '.bin', 'api-documenter'), ['markdown', '-i', input, '-o', out], { stdio: 'pipe' });
} catch (e) {
  console.error(String((e as { stderr?: Buffer }).stderr ?? e));
  process.exit(1);
}
// the headings and the index name each entry as it is imported
for (const e of entries.filter((x) => x.name !== x.entry)) {
  for (const page of ['index.md', ...fs.readdirSync(out).filter((n) => n.startsWith(`${e.name}.`))]) {
    const file = path.join(out, page);
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, text.replaceAll(`## ${e.name} package`, `## ${e.entry}`).replaceAll(`[${e.name}](./${e.name}.md)`, `[${e.entry}](./${e.name}.md)`));
  }
}

if (check) {
  const list = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);
  const names = [...new Set([...list(out), ...list(committed)])].sort();
  const differ = names.filter((n) => {
    const a = path.join(out, n);
    const b = path.join(committed, n);
    return !fs.existsSync(a) || !fs.existsSync(b) || !fs.readFileSync(a).equals(fs.readFileSync(b));
  });
  if (differ.length) {
    const shown = differ.slice(0, 10).map((n) => `  docs/api/${n}`).join('\n');
    const more = differ.length > 10 ? `\n  ... and ${differ.length - 10} more` : '';
    console.error(`docs/api/ is not current: ${differ.length} files differ from the API:\n${shown}${more}\nrun \`npm run docs:api\` and commit docs/api/`);
    process.exit(1);
  }
  console.log(`docs/api/ is current (${names.length} files)`);
}
