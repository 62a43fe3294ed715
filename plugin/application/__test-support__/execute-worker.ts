/**
 * A process that executes the example application through the application host with the durable
 * SQLite ledger, for execute-restart.kill.test.ts (bundled with esbuild; `LEDGER_TEST_SQLITE_DRIVER`
 * names the SQLite driver). The test kills it with
 * SIGKILL at a chosen moment and repeats the same execute in a new process.
 *
 *   node execute-worker.cjs ROOT LEDGER KEY HOLD LEASE_MS [CLOCK_AHEAD_MS]
 *
 * CLOCK_AHEAD_MS moves this process's ledger clock ahead of the real one: a repeat that must find
 * the dead holder's lease over says so, instead of the test sleeping through the lease (a sleep
 * that a loaded machine can stretch past a short lease, or a lease it can outlast).
 * HOLD says where the run stops and waits to be killed: `none` (finish, print the response, then
 * wait), `before-dispatch` (inside the gateway, before the dispatch marker) or `after-dispatch`
 * (after the gateway dispatched, before the step returns). It prints one JSON line per event.
 */
import { createApplicationHost } from '../application-host';
import type { GatewayOwner } from '../gateway-owner';
import { openSqliteExecutionLedger } from '../sqlite-ledger';
import type { SqliteDriverName } from '../../sqlite/sqlite-driver';
import { ARTIFACTS_FOLDER, EXAMPLE_INPUTS, EXAMPLE_MANIFEST, localGateway } from './application-workspace';

const [root, file, key, hold, lease, ahead = '0'] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string?,
];
const say = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value)}\n`);
};
const forever = () => new Promise<never>(() => setInterval(() => undefined, 1 << 30));

async function main(): Promise<void> {
  const driver = process.env['LEDGER_TEST_SQLITE_DRIVER'] as SqliteDriverName | undefined;
  const ledger = openSqliteExecutionLedger({
    file,
    leaseMs: Number(lease),
    now: () => Date.now() + Number(ahead),
    ...(driver ? { driver } : {}),
  });
  if (!ledger.ok) return say({ event: 'ledger-failed', message: ledger.message });
  const real = localGateway(root);
  const gateway: GatewayOwner = {
    ...real,
    invoke: async (call) => {
      if (hold === 'before-dispatch') {
        say({ event: 'holding', at: 'before-dispatch' });
        return forever();
      }
      const outcome = await real.invoke(call);
      if (hold === 'after-dispatch') {
        say({ event: 'holding', at: 'after-dispatch' });
        return forever();
      }
      return outcome;
    },
  };
  const host = await createApplicationHost({ workspaceRoot: root, gateway, ledger: ledger.ledger });
  if (!host.ok) return say({ event: 'host-failed', message: host.message });
  const manifest = { path: EXAMPLE_MANIFEST };
  const plan = await host.service.plan({ manifest, mode: 'live' });
  if (!plan.ok) return say({ event: 'plan-failed', diagnostics: plan.diagnostics });
  const response = await host.service.execute({
    manifest,
    mode: 'live',
    expectedPlanDigest: plan.plan.digest,
    idempotencyKey: key,
    inputs: EXAMPLE_INPUTS,
  });
  say({ event: 'response', response, artifacts: ARTIFACTS_FOLDER });
  await forever();
}

void main();
