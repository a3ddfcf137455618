/**
 * Python's `random.Random`: the Mersenne Twister seeded as CPython seeds it, with `sample` drawing exactly the
 * same items, so the proposer's focus pages match the seed's for the same seed string.
 * @module
 */
import { createHash } from 'node:crypto';

const N = 624;
const M = 397;

/** A Python-compatible random generator (MT19937, CPython's seeding, `getrandbits`, `sample`, `random`). */
export class PyRandom {
  private readonly mt = new Uint32Array(N);
  private mti = N + 1;

  /** Seeds like `random.Random(seed)`: a string (version 2: its UTF-8 bytes plus their SHA-512) or an integer. */
  constructor(seed: string | number | bigint) {
    this.initByArray(seedKey(seed));
  }

  /** `getrandbits(k)` for 0 <= k <= 32. */
  getrandbits(k: number): number {
    if (k < 0 || k > 32) throw new RangeError('getrandbits supports 0..32 bits');
    if (k === 0) return 0;
    return this.genrandUint32() >>> (32 - k);
  }

  /** `_randbelow(n)`: an integer in [0, n) by rejection sampling on `getrandbits`. */
  randbelow(n: number): number {
    if (n <= 0) return 0;
    const k = 32 - Math.clz32(n);
    let r = this.getrandbits(k);
    while (r >= n) r = this.getrandbits(k);
    return r;
  }

  /** `random()`: a float in [0, 1) with 53 random bits. */
  random(): number {
    const a = this.genrandUint32() >>> 5;
    const b = this.genrandUint32() >>> 6;
    return (a * 67108864 + b) * (1 / 9007199254740992);
  }

  /** `sample(population, k)`: k distinct items, in the order CPython 3.11 draws them. */
  sample<T>(population: readonly T[], k: number): T[] {
    const n = population.length;
    if (k < 0 || k > n) throw new RangeError('Sample larger than population or is negative');
    const result: T[] = new Array<T>(k);
    let setsize = 21;
    if (k > 5) setsize += 4 ** Math.ceil(Math.log(k * 3) / Math.log(4));
    if (n <= setsize) {
      const pool = [...population];
      for (let i = 0; i < k; i++) {
        const j = this.randbelow(n - i);
        result[i] = pool[j]!;
        pool[j] = pool[n - i - 1]!;
      }
    } else {
      const selected = new Set<number>();
      for (let i = 0; i < k; i++) {
        let j = this.randbelow(n);
        while (selected.has(j)) j = this.randbelow(n);
        selected.add(j);
        result[i] = population[j]!;
      }
    }
    return result;
  }

  private initGenrand(s: number): void {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.mti = N;
  }

  private initByArray(key: Uint32Array): void {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = ((mt[i]! ^ Math.imul(prev, 1664525)) + key[j]! + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = ((mt[i]! ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  private genrandUint32(): number {
    const mt = this.mt;
    if (this.mti >= N) {
      let kk = 0;
      for (; kk < N - M; kk++) {
        const y = (mt[kk]! & 0x80000000) | (mt[kk + 1]! & 0x7fffffff);
        mt[kk] = mt[kk + M]! ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      for (; kk < N - 1; kk++) {
        const y = (mt[kk]! & 0x80000000) | (mt[kk + 1]! & 0x7fffffff);
        mt[kk] = mt[kk + (M - N)]! ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      const y = (mt[N - 1]! & 0x80000000) | (mt[0]! & 0x7fffffff);
      mt[N - 1] = mt[M - 1]! ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      this.mti = 0;
    }
    let y = mt[this.mti++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }
}

// CPython's random_seed: the seed as a non-negative integer, cut into 32-bit words, least significant first.
function seedKey(seed: string | number | bigint): Uint32Array {
  let bytes: Uint8Array;
  if (typeof seed === 'string') {
    const utf8 = Buffer.from(seed, 'utf8');
    bytes = Buffer.concat([utf8, createHash('sha512').update(utf8).digest()]);
  } else {
    let n = BigInt(seed);
    if (n < 0n) n = -n;
    const hex = n.toString(16);
    bytes = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  }
  let start = 0;
  while (start < bytes.length && bytes[start] === 0) start++;
  const big = bytes.subarray(start);
  const words = Math.max(1, Math.ceil(big.length / 4));
  const key = new Uint32Array(words);
  for (let b = 0; b < big.length; b++) {
    const fromEnd = big.length - 1 - b; // little-endian byte index
    key[fromEnd >> 2]! |= big[b]! << (8 * (fromEnd & 3));
  }
  return key;
}
