import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveQwen } from '../src/index';
import { vllmArgs } from '../src/agent/serve-qwen';

// A fake `vllm` executable: records its argv and environment, then serves /health after a short delay, or
// fails, or never becomes healthy, as FAKE_MODE says.
const FAKE_VLLM = `#!/usr/bin/env node
const fs = require('node:fs');
const http = require('node:http');
const args = process.argv.slice(2);
fs.writeFileSync(process.env.FAKE_RECORD, JSON.stringify({ args, cuda: process.env.CUDA_VISIBLE_DEVICES ?? null, pid: process.pid }));
const mode = process.env.FAKE_MODE;
console.log('INFO starting vLLM API server');
if (mode === 'crash') { console.error('ValueError: model not found'); process.exit(3); }
const port = Number(args[args.indexOf('--port') + 1]);
const server = http.createServer((req, res) => {
  if (req.url === '/health' && mode !== 'never') { res.writeHead(200); return res.end(); }
  res.writeHead(503); res.end();
});
setTimeout(() => server.listen(port, '127.0.0.1', () => console.log('INFO Application startup complete.')), 300);
process.on('SIGTERM', () => { console.log('INFO shutting down'); process.exit(0); });
`;

let tmp: string;
let vllmPath: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'serve-qwen-'));
  vllmPath = path.join(tmp, 'vllm');
  await writeFile(vllmPath, FAKE_VLLM);
  await chmod(vllmPath, 0o755);
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('serveQwen', () => {
  it('starts vllm serve with flags for a VL agent, waits for /health, and stops it', async () => {
    const record = path.join(tmp, 'ok.json');
    const logs: string[] = [];
    const server = await serveQwen({ vllmPath, port: 0, gpus: 2, env: { FAKE_RECORD: record }, onLog: (l) => logs.push(l), pollMs: 50, extraArgs: ['--gpu-memory-utilization', '0.85'] });
    try {
      const seen = JSON.parse(await readFile(record, 'utf8'));
      const port = new URL(server.baseURL).port;
      expect(server.baseURL).toBe(`http://127.0.0.1:${port}/v1`);
      expect(server.model).toBe('Qwen/Qwen3.5-4B');
      expect(seen.args).toEqual([
        'serve', 'Qwen/Qwen3.5-4B', '--host', '127.0.0.1', '--port', port, '--served-model-name', 'Qwen/Qwen3.5-4B',
        '--max-model-len', '32768', '--limit-mm-per-prompt', '{"image":1,"video":0}', '--data-parallel-size', '2',
        '--default-chat-template-kwargs', '{"enable_thinking":false}', '--gpu-memory-utilization', '0.85',
      ]);
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
      expect(logs).toContain('INFO Application startup complete.');
      expect(alive(seen.pid)).toBe(true);
      await server.stop();
      expect(alive(seen.pid)).toBe(false);
      expect(logs).toContain('INFO shutting down');
    } finally {
      await server.stop();
    }
  });

  it('takes device ids, a served name, and no template kwargs for old vLLM', () => {
    const args = vllmArgs({ port: 9000, model: '/models/qwen', servedModelName: 'agent', gpus: [2, 3], maxModelLen: 16384, defaultChatTemplateKwargs: null });
    expect(args).toEqual(['serve', '/models/qwen', '--host', '127.0.0.1', '--port', '9000', '--served-model-name', 'agent', '--max-model-len', '16384', '--limit-mm-per-prompt', '{"image":1,"video":0}', '--data-parallel-size', '2']);
  });

  it('passes device ids as CUDA_VISIBLE_DEVICES', async () => {
    const record = path.join(tmp, 'ids.json');
    const server = await serveQwen({ vllmPath, port: 0, gpus: [1], env: { FAKE_RECORD: record }, pollMs: 50 });
    await server.stop();
    const seen = JSON.parse(await readFile(record, 'utf8'));
    expect(seen.cuda).toBe('1');
    expect(seen.args).not.toContain('--data-parallel-size');
  });

  it('reports a server that exits before it is healthy, with its last output', async () => {
    const record = path.join(tmp, 'crash.json');
    await expect(serveQwen({ vllmPath, port: 0, env: { FAKE_RECORD: record, FAKE_MODE: 'crash' }, pollMs: 50 })).rejects.toThrow(
      /vllm serve Qwen\/Qwen3\.5-4B exited \(code 3\) before it was healthy; its last output:\n(.|\n)*ValueError: model not found/,
    );
  });

  it('gives up after the startup timeout and kills the server', async () => {
    const record = path.join(tmp, 'never.json');
    await expect(
      serveQwen({ vllmPath, port: 0, env: { FAKE_RECORD: record, FAKE_MODE: 'never' }, pollMs: 50, startupTimeoutMs: 1500 }),
    ).rejects.toThrow(/was not healthy after 1500 ms/);
    const seen = JSON.parse(await readFile(record, 'utf8'));
    expect(alive(seen.pid)).toBe(false);
  });

  it('says so when there is no vllm executable', async () => {
    await expect(serveQwen({ vllmPath: path.join(tmp, 'missing-vllm'), port: 0, pollMs: 50 })).rejects.toThrow(/exited \(spawn .*ENOENT\)/);
  });
});
