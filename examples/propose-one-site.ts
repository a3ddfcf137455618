// Propose tasks for one site and look at each part: what the proposer sees of the site, the prompt, the tasks.
//   npx tsx examples/propose-one-site.ts [site]
// Gemini with GEMINI_API_KEY set (MiniWeb's sites with MINIWEB_SITEMAPS and MINIWEB_BASE_URL); else the sandbox's
// stand-in proposer, which serves each site's bank of known tasks (see examples/setup.ts).
import { proposePrompt, proposeSite, siteContext } from 'miniweb-taskgen';
import { exampleSetup } from './setup';

const setup = await exampleSetup();
console.log(setup.lines.join('\n'));
try {
  const site = process.argv[2] ?? setup.sites?.[0] ?? (await setup.source.split()).train[0]!;

  // %% What the proposer sees of the site: its pages, the controls per page, the text of its main pages.
  const ctx = await siteContext(site, setup.source);
  console.log(`\n${ctx.name} (${ctx.paths.length} pages under ${ctx.home})\n${ctx.text.slice(0, 1200)}\n...`);

  // %% The prompt of the first batch (the seed's, byte for byte), without the context shown above.
  const focus = "Most of these tasks should involve the site's main sections.";
  console.log(`\n${proposePrompt({ name: ctx.name, home: ctx.home, context: '(the context above)', n: 8, nInfo: 3, nAct: 5, focus, avoid: '(none yet)' })}`);

  // %% Propose 8 tasks: batches of 20 asked, duplicates and short instructions dropped, ids from the instruction.
  const tasks = await proposeSite(ctx, {
    llm: setup.proposer,
    perSite: 8,
    onEvent: (e) => {
      if (e.type === 'batch-done') console.log(`  batch ${e.batch}: ${e.added} new tasks`);
      if (e.type === 'batch-failed') console.log(`  batch ${e.batch} failed: ${e.reason}`);
    },
  });
  for (const t of tasks) console.log(`${t.task_id}  [${t.task_kind}]  ${t.instruction}`);
} finally {
  await setup.close();
}
