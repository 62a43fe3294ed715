/**
 * Runs a short synchronous critical section with the termination signals a user or a supervisor
 * sends (SIGINT, SIGTERM, SIGHUP) held back until it ends. Node dispatches a signal to JavaScript
 * only from the event loop's poll phase, and forgets one that arrives while no listener is
 * installed; so a listener is installed before the section and kept until a poll phase has passed
 * after it (two `setImmediate` turns). A signal held meanwhile is then delivered as it would have
 * been: the process's own listeners got it already; if it has none, the signal is raised again and
 * its default action (the process ends) happens after the section, never inside it.
 * SIGKILL cannot be held back by anyone; the writer's recovery covers it.
 */
const DEFERRED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

const afterPollPhase = () => new Promise<void>((done) => setImmediate(() => setImmediate(done)));

export async function withSignalsDeferred<T>(section: () => T): Promise<T> {
  const held = new Set<NodeJS.Signals>();
  const hold = (signal: NodeJS.Signals) => {
    held.add(signal);
  };
  for (const signal of DEFERRED_SIGNALS) process.on(signal, hold);
  try {
    return section();
  } finally {
    await afterPollPhase();
    for (const signal of DEFERRED_SIGNALS) process.off(signal, hold);
    for (const signal of held) if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  }
}
