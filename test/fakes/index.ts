/**
 * Fake model servers for tests and benchmarks: the real SDKs talk HTTP to them on 127.0.0.1.
 * @module
 */
export { startFakeGemini, geminiModelOf } from './gemini';
export { startFakeOpenAI } from './openai';
export type {
  FakeDisconnect,
  FakeErrorReply,
  FakeHandler,
  FakeHang,
  FakeRawReply,
  FakeReply,
  FakeServer,
  FakeServerOptions,
  FakeTextReply,
  FakeUsage,
  RecordedRequest,
} from './http';
export { makeImage, base64Of, type MakeImageOptions } from './images';
