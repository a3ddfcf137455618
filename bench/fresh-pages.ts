/**
 * What memory touched for the first time costs this machine: CPU µs per 4 KiB page written once in fresh memory
 * (a new WebAssembly memory each round: mapped by V8, each page a minor fault on its first write) against the same
 * writes to memory already touched. Where faults are cheap this is about a microsecond or less; on the 2-core virtual
 * machine this project is measured on, 13-17 µs. Chromium takes several fresh buffers per screenshot
 * (docs/past-one-machine.md), so the same browser work costs a machine whose faults are slow more CPU. The sizing bench prints it beside its page faults per step.
 * @module
 */

const PAGE = 4096;
// typed here: the project's lib has no DOM, and @types/node declares WebAssembly's namespace without its classes
const { Memory } = (globalThis as unknown as { WebAssembly: { Memory: new (size: { initial: number }) => { buffer: ArrayBuffer } } }).WebAssembly;
const WASM_PAGE = 65_536;

/** CPU µs per 4 KiB page: written for the first time (`fresh`) and written again (`reused`). */
export interface PageCost {
  readonly fresh: number;
  readonly reused: number;
}

/** Measures {@link PageCost} over `rounds` buffers of `bytes` (default 25 of 4 MiB, about 0.4 s where a fault costs 13 µs). */
export function freshPageCost(rounds = 25, bytes = 4 * 2 ** 20): PageCost {
  const size = { initial: Math.ceil(bytes / WASM_PAGE) };
  const touch = (view: Uint8Array, value: number) => {
    for (let i = 0; i < view.length; i += PAGE) view[i] = value;
  };
  const pages = (size.initial * WASM_PAGE) / PAGE;
  const cpu = (run: () => void) => {
    const start = process.cpuUsage();
    run();
    const spent = process.cpuUsage(start);
    return (spent.user + spent.system) / rounds / pages;
  };
  const fresh = cpu(() => {
    for (let r = 0; r < rounds; r++) touch(new Uint8Array(new Memory(size).buffer), 1);
  });
  const kept = new Uint8Array(new Memory(size).buffer);
  touch(kept, 1);
  const reused = cpu(() => {
    for (let r = 0; r < rounds; r++) touch(kept, r);
  });
  return { fresh, reused };
}
