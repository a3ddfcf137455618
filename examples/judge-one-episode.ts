// Judge one episode and read everything the judge gets and gives: the prompt (the seed's, byte for byte), the
// screenshots sent with it, and the record written to the judge dir.
//   npx tsx examples/judge-one-episode.ts [episode dir]
// Default: the episode recorded in examples/fixtures/run (a real sandbox run). Gemini judges with GEMINI_API_KEY
// set; else the sandbox's stand-in judge (not a model: it grades with the task's verifier).
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SYSTEM_JUDGE, buildJudgeRequest, gemini, judgeEpisode, loadInstructions } from 'miniweb-taskgen';
import { sandboxJudge } from 'miniweb-taskgen/sandbox';

const episode = process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/run/hu-mail-01-archive-35');
const run = path.dirname(episode);

// %% The task's instruction comes from the run's tasks.jsonl, as the judge step reads it.
const tasks = await loadInstructions(run);
const instruction = tasks.get(path.basename(episode))!.instruction;

// %% The request: the system prompt, the prompt built from grade_inputs.json, the screenshots (start and end).
const request = (await buildJudgeRequest(episode, instruction))!;
console.log(`SYSTEM: ${SYSTEM_JUDGE.slice(0, 120)}...\n\n${request.prompt}\n`);
console.log(`screenshots: ${request.screenshots.map((s) => path.relative(run, s)).join(', ')}`);

// %% Judge it into a scratch judge dir (a record is written only when the reply has a verdict).
const key = process.env.GEMINI_API_KEY ?? process.env.GOOGLE_API_KEY;
const llm = key ? gemini({ apiKey: key }) : sandboxJudge({ runDir: run });
console.log(`judge: ${llm.modelId}${key ? '' : ' (the sandbox\'s STAND-IN judge, not a model; set GEMINI_API_KEY for Gemini)'}`);
const judgeDir = await mkdtemp(path.join(tmpdir(), 'judge-one-'));
const record = await judgeEpisode({ episode, instruction, judgeDir, llm });
console.log(JSON.stringify(record, null, 1));
console.log(`record: ${path.join(judgeDir, `${record!.task_id}.json`)}`);
