/** A scripted model for tests: it replies from a list or a function and records every call. @module */
import { LLMError, ZERO_USAGE, type CompleteOptions, type Completion, type LanguageModel, type Usage } from './types';

/** One call the fake received. */
export interface FakeCall {
  /** The prompt text as given. */
  readonly prompt: string;
  /** The call's options as given (`{}` when none). */
  readonly options: CompleteOptions;
}

/** What a scripted reply may be: text, a full completion, or an error to throw. */
export type FakeReply = string | { text: string; usage?: Usage } | Error;

/** Computes a reply from the call. */
export type FakeResponder = (call: FakeCall, index: number) => FakeReply | Promise<FakeReply>;

/** Options of {@link fakeLLM}. */
export interface FakeLLMOptions {
  /** Replies in order (the last one repeats), or a function of the call. */
  readonly replies: readonly FakeReply[] | FakeResponder;
  /** The model name to report. Default `fake-model`. */
  readonly modelId?: string;
}

/** A {@link LanguageModel} that replies as scripted and records its calls. */
export interface FakeLLM extends LanguageModel {
  /** Every call so far, in order. */
  readonly calls: readonly FakeCall[];
}

/**
 * A fake model for tests. Replies come from a list (the last one repeats) or a function; an `Error` reply is
 * thrown (wrap it in {@link LLMError} to control `isRetryable`).
 * @example
 * const llm = fakeLLM({ replies: ['{"verdict": "SUCCESS"}'] });
 * await judgeEpisode(...); expect(llm.calls[0].prompt).toContain('TASK:');
 */
export function fakeLLM(options: FakeLLMOptions): FakeLLM {
  const calls: FakeCall[] = [];
  const modelId = options.modelId ?? 'fake-model';
  const { replies } = options;
  return {
    provider: 'fake',
    modelId,
    calls,
    async complete(prompt: string, opts: CompleteOptions = {}): Promise<Completion> {
      const call: FakeCall = { prompt, options: opts };
      const index = calls.length;
      calls.push(call);
      const reply =
        typeof replies === 'function' ? await replies(call, index) : replies[Math.min(index, replies.length - 1)];
      if (reply === undefined) throw new LLMError('fakeLLM has no replies', { model: modelId, provider: 'fake', isRetryable: false });
      if (reply instanceof Error) throw reply;
      if (typeof reply === 'string') return { text: reply, usage: ZERO_USAGE, model: modelId };
      return { text: reply.text, usage: reply.usage ?? ZERO_USAGE, model: modelId };
    },
  };
}
