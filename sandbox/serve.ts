/**
 * `npm run sandbox [-- --port 8000] [--host 127.0.0.1]`: serves every sandbox site and prints the URL.
 * `npm run sandbox -- --write-sitemaps DIR`: crawls every site and writes `DIR/sitemaps/<site>.json` and
 * `DIR/split.json` (MiniWeb's layout), then exits.
 * @module
 */
import { parseArgs } from 'node:util';
import { startSandbox } from './server';
import { writeSitemaps } from './source';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    'write-sitemaps': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (values.help) {
  process.stdout.write('usage: npm run sandbox [-- --port 8000] [--host 127.0.0.1] [--write-sitemaps DIR]\n');
  process.exit(0);
}

const dir = values['write-sitemaps'];
const port = values.port === undefined ? (dir ? 0 : 8000) : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`sandbox: --port must be a port number, not ${JSON.stringify(values.port)}\n`);
  process.exit(2);
}

const server = await startSandbox({ port, host: values.host });
if (dir) {
  let n = 0;
  const sites = await writeSitemaps({ url: server.url, dir, onSite: (site) => process.stdout.write(`\r${++n} sitemaps (${site})   `) });
  const split = server.catalog.split();
  process.stdout.write(`\nwrote ${sites.length} sitemaps to ${dir}/sitemaps and ${dir}/split.json (${split.train.length} train, ${split.test.length} test)\n`);
  await server.close();
} else {
  const split = server.catalog.split();
  process.stdout.write(`sandbox serving ${split.train.length + split.test.length} sites at ${server.url}/ (sites under ${server.url}/sites/<site>/, evidence under ${server.url}/_admin/)\n`);
  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
