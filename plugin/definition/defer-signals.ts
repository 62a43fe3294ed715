/**
 * Runs a short synchronous critical section with the termination signals a user or a supervisor
 * sends (SIGINT, SIGTERM, SIGHUP) held back until it ends.
 *
 * Node dispatches a signal to JavaScript only from the event loop, and a signal that arrives while
 * no listener is installed has its default action at once; one that arrives just before the last
 * listener is removed is lost. So the first section installs one listener per signal that stays:
 * it holds a signal that arrives during a section (its dispatch comes after the section, since the
 * section is synchronous), and otherwise gives the signal the effect it would have had without
 * agentdef: nothing more if the process has listeners of its own (they were called too), else the
 * default action (the listener removes itself and raises the signal again). SIGKILL cannot be held
 * back by anyone; the writer's recovery covers it.
 */
const DEFERRED_SIGNALS: readonly NodeJS.Signals[] =
  process.platform === 'win32' ? ['SIGINT', 'SIGTERM'] : ['SIGINT', 'SIGTERM', 'SIGHUP'];

const installed = new Set<NodeJS.Signals>();

function onSignal(signal: NodeJS.Signals): void {
  // Dispatched from the event loop: after the (synchronous) section that was running when it arrived.
  if (process.listenerCount(signal) > 1) return; // the process's own listeners got it as well
  process.off(signal, onSignal);
  installed.delete(signal);
  process.kill(process.pid, signal); // no listener left: the default action, as without agentdef
}

function install(): void {
  for (const signal of DEFERRED_SIGNALS) {
    if (installed.has(signal)) continue;
    process.on(signal, onSignal);
    installed.add(signal);
  }
}

export function withSignalsDeferred<T>(section: () => T): T {
  install();
  return section();
}
