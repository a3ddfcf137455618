/**
 * The agent's model of `taskgen pipeline`: on the endpoint given, or on a vLLM server started here with
 * `--serve-qwen` (its log in the work dir, stopped at the end). Thinking is switched by {@link qwenChatTemplate}.
 * @module
 */
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { qwenChatTemplate } from '../agent/qwen-policy';
import { serveQwen, type QwenServer } from '../agent/serve-qwen';
import { resolveModel, type ResolvedModel } from './models';
import type { PipelineFlags } from './pipeline-flags';

// The real agent's model: on the endpoint given, or on a vLLM server started here (stopped by `cleanup`).
export async function agentModel(
  flags: PipelineFlags,
  wanted: boolean,
  out: string,
  cleanup: Array<() => Promise<void>>,
): Promise<{ llm: ResolvedModel; description: string } | undefined> {
  if (!wanted) return undefined;
  const extraBody = qwenChatTemplate(flags.thinking);
  let endpoint = flags.agentEndpoint ?? (flags.sandbox ? undefined : process.env.QWEN_ENDPOINT);
  let served: QwenServer | undefined;
  if (flags.serveQwen) {
    await mkdir(out, { recursive: true });
    const logFile = path.join(out, 'vllm.log');
    const log = createWriteStream(logFile, { flags: 'a' });
    process.stdout.write(`starting vLLM for ${flags.agentModel} on ${flags.gpus} GPU(s) (log: ${logFile}) ...\n`);
    served = await serveQwen({ model: flags.agentModel, gpus: flags.gpus, vllmPath: flags.vllm, port: 0, onLog: (l) => log.write(`${l}\n`) }).catch((e: unknown) => {
      log.end();
      throw e;
    });
    cleanup.push(async () => {
      await served!.stop();
      log.end();
    });
    endpoint = served.baseURL;
  }
  const llm = resolveModel({ model: served?.model ?? flags.agentModel, endpoint, apiKeyEnv: flags.agentApiKeyEnv, extraBody, timeoutMs: flags.timeout * 1000 });
  const how = served ? ` (vLLM started here by --serve-qwen, ${flags.gpus} GPU(s), stopped at the end)` : '';
  return { llm, description: `${llm.description}${flags.thinking ? ', thinking' : ''}${how}` };
}
