/**
 * The model adapters' own overhead on a judge-sized call (system prompt, JSON mode, ten 1280x800 PNG
 * screenshots) against the fake servers on 127.0.0.1, beside a baseline measured in the same run: a raw
 * `fetch` that base64-encodes the same images, posts the same body and parses the reply.
 */
import { performance } from 'node:perf_hooks';
import { gemini, openaiCompatible, type CompleteOptions, type ImageInput } from '../src/index';
import { makeImage, startFakeGemini, startFakeOpenAI } from '../test/fakes/index';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const WARMUP = 5;
const KEY = 'bench-key';
const PROMPT = 'TASK: add the blue lamp to the cart.\n'.repeat(200);
const SYSTEM = 'You judge whether a web agent completed its task. Reply in JSON.';

const images: ImageInput[] = await Promise.all(
  Array.from({ length: 10 }, (_, seed) => makeImage({ width: 1280, height: 800, seed })),
);
const call: CompleteOptions = { system: SYSTEM, json: true, temperature: 0, maxTokens: 8192, images };
const reply = { text: '{"verdict": "SUCCESS", "reason": "the cart shows the lamp"}', usage: { input: 2600, output: 30 } };
const geminiServer = await startFakeGemini({ replies: [reply] });
const openaiServer = await startFakeOpenAI({ replies: [reply] });

const b64 = (image: ImageInput) => Buffer.from(image.data).toString('base64');
async function post(url: string, headers: Record<string, string>, body: unknown): Promise<unknown> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return response.json();
}
const rawGemini = () =>
  post(`${geminiServer.url}/v1beta/models/gemini-3.5-flash:generateContent`, { 'x-goog-api-key': KEY }, {
    contents: [{ role: 'user', parts: [{ text: PROMPT }, ...images.map((i) => ({ inlineData: { mimeType: i.mediaType, data: b64(i) } }))] }],
    systemInstruction: { parts: [{ text: SYSTEM }], role: 'user' },
    generationConfig: { temperature: 0, maxOutputTokens: 8192, responseMimeType: 'application/json' },
  });
const rawOpenAI = () =>
  post(`${openaiServer.url}/chat/completions`, { authorization: `Bearer ${KEY}` }, {
    model: 'Qwen/Qwen3.5-4B',
    messages: [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: [{ type: 'text', text: PROMPT }, ...images.map((i) => ({ type: 'image_url', image_url: { url: `data:${i.mediaType};base64,${b64(i)}` } }))] },
    ],
    max_tokens: 8192,
    temperature: 0,
    response_format: { type: 'json_object' },
  });

const judge = gemini({ apiKey: KEY, baseUrl: geminiServer.url });
const agent = openaiCompatible({ baseURL: openaiServer.url, model: 'Qwen/Qwen3.5-4B', apiKey: KEY });
const pairs: Array<[string, () => Promise<unknown>, () => Promise<unknown>]> = [
  ['gemini', () => judge.complete(PROMPT, call), rawGemini],
  ['openaiCompatible', () => agent.complete(PROMPT, call), rawOpenAI],
];

const pixels = images.reduce((n, i) => n + i.data.byteLength, 0);
process.stdout.write(`judge-sized call: 10 PNG 1280x800 (${(pixels / 1e6).toFixed(2)} MB), ${ROUNDS} rounds after ${WARMUP} warm-up, interleaved\n`);
for (const [name, adapter, baseline] of pairs) {
  const a: number[] = [];
  const b: number[] = [];
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    // Alternate which goes first so neither always runs on a warmer machine.
    const order = round % 2 ? [[adapter, a], [baseline, b]] as const : [[baseline, b], [adapter, a]] as const;
    for (const [run, times] of order) {
      const start = performance.now();
      await run();
      if (round >= WARMUP) times.push(performance.now() - start);
    }
  }
  const [ap50, ap95, bp50, bp95] = [pct(a, 50), pct(a, 95), pct(b, 50), pct(b, 95)];
  process.stdout.write(
    `${name.padEnd(17)} adapter p50 ${ms(ap50)} p95 ${ms(ap95)} | raw fetch p50 ${ms(bp50)} p95 ${ms(bp95)} | ` +
      `ratio p50 ${(ap50 / bp50).toFixed(2)}x, overhead ${ms(ap50 - bp50)}/call\n`,
  );
}

const small = gemini({ apiKey: KEY, baseUrl: geminiServer.url, downscale: 768 });
const d: number[] = [];
for (let round = 0; round < 10; round++) {
  const start = performance.now();
  await small.complete(PROMPT, call);
  d.push(performance.now() - start);
}
const sent = (geminiServer.requests.at(-1)?.rawBody.length ?? 0) / 1e6;
process.stdout.write(`gemini downscale 768: p50 ${ms(pct(d, 50))} (sharp resize of 10 images, body ${sent.toFixed(2)} MB)\n`);

await Promise.all([geminiServer.close(), openaiServer.close()]);

function pct(values: readonly number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function ms(value: number): string {
  return `${value.toFixed(2)} ms`;
}
