/**
 * The `application-execute` executor's `ledger` option on PostgreSQL, for real: `secret:NAME` (the
 * connection string in `AGENTDEF_SECRET_NAME`, the keychain off) puts the execution ledger in a
 * real PostgreSQL started in this test's folder, so a repeated key replays from another call; a
 * ledger that cannot be opened fails the target with a code, and no output carries the secret.
 */
import '../__test-support__/require-typescript';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type PostgresServer, startPostgres } from '../../e2e/support/postgres-server';
import { applicationWorkspace, MANIFEST, type ApplicationWorkspace } from '../__test-support__/application-workspace';
import { captureOutput, type CapturedOutput } from '../__test-support__/captured-output';
import { executorContext } from '../test-support';
import applicationExecuteExecutor from './executor';

const scratch = mkdtempSync(join(tmpdir(), 'agentdef-executor-pg-'));
let server: PostgresServer;
let url: string;
beforeAll(async () => {
  server = await startPostgres(join(scratch, 'pg'));
  url = await server.database('executor_ledger');
});
afterAll(async () => {
  await server?.stop().catch(() => undefined);
  rmSync(scratch, { recursive: true, force: true });
});

let ws: ApplicationWorkspace;
let output: CapturedOutput;
beforeEach(() => {
  ws = applicationWorkspace();
  output = captureOutput();
  vi.stubEnv('AGENTDEF_KEYCHAIN', 'off');
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  ws.remove();
});

const QUESTION = 'request.value={"question":"Why is the build red?"}';
const options = {
  manifest: MANIFEST,
  input: QUESTION,
  key: 'triage-pg-1',
  ledger: 'secret:APP_LEDGER',
  format: 'json' as const,
};

describe('application-execute executor with the ledger in PostgreSQL', () => {
  it('replays a run recorded in the PostgreSQL ledger under the same key, from another call', async () => {
    vi.stubEnv('AGENTDEF_SECRET_APP_LEDGER', url);
    const context = executorContext(ws.root, 'triage');
    expect(await applicationExecuteExecutor(options, context)).toEqual({ success: true });
    const first = JSON.parse(output.stdout()) as { replayed: boolean; run: unknown };
    expect(first.replayed).toBe(false);
    output.clear();
    expect(await applicationExecuteExecutor(options, context)).toEqual({ success: true });
    expect(JSON.parse(output.stdout())).toEqual({ ...first, replayed: true });
    expect(server.psql("SELECT key || ' ' || state FROM agentdef_execution_ledger", 'executor_ledger')).toBe(
      'triage-pg-1 succeeded\n',
    );
    expect(output.stdout() + output.stderr()).not.toContain(server.password);
  });

  it('fails the target when the ledger cannot be opened, naming the code and never the secret', async () => {
    const secret = 'Sup3r-Secret-Pa55';
    vi.stubEnv('AGENTDEF_SECRET_APP_LEDGER', url.replace(encodeURIComponent(server.password), secret));
    expect(await applicationExecuteExecutor(options, executorContext(ws.root, 'triage'))).toEqual({ success: false });
    const said = output.stdout() + output.stderr();
    expect(said).toMatch(/--ledger: .*SQLSTATE 28P01/);
    expect(said).not.toContain(secret);
    expect(said).not.toContain('agentdef:');
  });
});
