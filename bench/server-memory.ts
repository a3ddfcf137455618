/**
 * Loaded into the soak bench's server (`--import`): appends the process's memory every second to the file named by
 * SOAK_MEMORY_FILE, one JSON line each, so the bench reads the JS heap from inside without changing the server.
 * @module
 */
import { appendFileSync } from 'node:fs';

const file = process.env.SOAK_MEMORY_FILE;
if (file) {
  setInterval(() => {
    const m = process.memoryUsage();
    appendFileSync(file, `${JSON.stringify({ t: Date.now(), rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external })}\n`);
  }, 1000).unref();
}
