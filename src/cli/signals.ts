/** Stopping a long CLI run cleanly on SIGINT/SIGTERM. @module */

/**
 * An abort signal for SIGINT and SIGTERM: the first stops the run cleanly (no new episode or stage starts; `notice`
 * is printed), a second exits at once (130). `dispose` removes the handlers.
 */
export function stopOnSignals(notice: string, reason: string): { readonly signal: AbortSignal; dispose(): void } {
  const stop = new AbortController();
  let interrupted = 0;
  const onSignal = () => {
    if (interrupted++) process.exit(130);
    process.stderr.write(notice);
    stop.abort(new Error(reason));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: stop.signal,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
