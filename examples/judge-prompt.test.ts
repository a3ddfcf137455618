// How to unit-test a change to the judge prompt: judge a recorded episode (examples/fixtures/run, from a real sandbox
// run; examples/fixtures/record.ts made it) with a fake model that records what it is sent, then check the prompt
// it got and the record written. No network, no browser: `npx vitest run examples`.
// The whole prompt is compared with examples/fixtures/judge-prompt.txt, so any change to it shows as a diff; when
// you change the prompt on purpose, read the diff and accept it with `npx vitest run examples -u`.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SYSTEM_JUDGE, fakeLLM, judgeEpisode, type LanguageModel } from 'miniweb-taskgen';

const EPISODE = path.join(__dirname, 'fixtures', 'run', 'hu-mail-01-archive-35');
const INSTRUCTION = 'Archive the email "Ember status update (week 35)".';
const SUCCESS = '{"parts": [{"part": "archive the email", "done": true, "evidence": "folder inbox -> archive"}], "verdict": "SUCCESS"}';

let judgeDir: string;
beforeEach(async () => {
  judgeDir = await mkdtemp(path.join(tmpdir(), 'judge-prompt-'));
});
afterEach(async () => {
  await rm(judgeDir, { recursive: true, force: true });
});

describe('the judge prompt of a recorded episode', () => {
  it('carries the task, the actions, the server evidence and the screenshots', async () => {
    const llm = fakeLLM({ replies: [SUCCESS], modelId: 'fake-judge' });
    await judgeEpisode({ episode: EPISODE, instruction: INSTRUCTION, judgeDir, llm });

    const [call] = llm.calls;
    await expect(call!.prompt).toMatchFileSnapshot('./fixtures/judge-prompt.txt');
    // The parts a rule about archiving depends on: the data change and the requests that made it.
    expect(call!.prompt).toContain(`TASK: ${INSTRUCTION}`);
    expect(call!.prompt).toContain('update messages (Ember status update (week 35)): {"folder": ["inbox", "archive"]}');
    expect(call!.prompt).toMatch(/^POST \/sites\/mail-01\/messages\/35\/.* -> 30\d$/m);
    expect(call!.options).toMatchObject({ system: SYSTEM_JUDGE, json: true, temperature: 0, maxTokens: 8192 });
    expect(call!.options.images?.map((image) => image.name)).toEqual([
      ...[0, 1, 2, 3].map((n) => `hu-mail-01-archive-35/screenshots/step_${n}.png`),
      'hu-mail-01-archive-35/final.png',
    ]);
  });

  it('writes the verdict record as the seed does', async () => {
    const record = await judgeEpisode({ episode: EPISODE, instruction: INSTRUCTION, judgeDir, llm: fakeLLM({ replies: [SUCCESS], modelId: 'fake-judge' }) });
    expect(record).toEqual({ task_id: 'hu-mail-01-archive-35', predicted_label: 1, verdict: true, response: SUCCESS, model: 'fake-judge' });
    const file = await readFile(path.join(judgeDir, 'hu-mail-01-archive-35.json'), 'utf8');
    expect(JSON.parse(file)).toEqual(record);
    expect(file).toContain('\n "predicted_label": 1,'); // json.dumps(rec, indent=1)
  });

  it('asks again when a reply has no verdict, and writes no record without one', async () => {
    const llm = fakeLLM({ replies: ['{"parts": []}', 'Sure! The agent archived it.', '{"verdict": "probably"}'] });
    const record = await judgeEpisode({ episode: EPISODE, instruction: INSTRUCTION, judgeDir, llm });
    expect(llm.calls).toHaveLength(3);
    expect(record).toMatchObject({ verdict: false, predicted_label: 0, response: '{"verdict": "probably"}' });
    expect(existsSync(path.join(judgeDir, 'hu-mail-01-archive-35.json'))).toBe(false);
  });

  it('tries a prompt change without touching the library: a model wrapper that edits the prompt', async () => {
    // An extra rule appended to every judge prompt; the fake shows exactly what a real model would receive.
    const RULE = 'Extra rule: an email counts as archived only if the data changes move it to the archive folder.';
    const fake = fakeLLM({ replies: ['{"verdict": "NOT SUCCESS"}'] });
    const withRule: LanguageModel = { ...fake, complete: (prompt, options) => fake.complete(`${prompt}\n\n${RULE}`, options) };
    const record = await judgeEpisode({ episode: EPISODE, instruction: INSTRUCTION, judgeDir, llm: withRule });
    expect(fake.calls[0]!.prompt.endsWith(`"NOT SUCCESS"}\n\n${RULE}`)).toBe(true);
    expect(record).toMatchObject({ predicted_label: 0, verdict: true, model: 'fake-model' });
  });
});
