/**
 * What `agentdef run` prints when a host is up: the address once (the supervisor's banner; the
 * host's own "serves A2A at" line is for hosts started without `agentdef run`), and a receipts
 * path only when the agent's receipts are on. The agent is code-search at `tool-prototype`
 * (receipts off) and as shipped (signed receipts), compiled for local-mac and run as users run it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { agentdefRun, compileExample, isolatedEnv, REPO, receiptKeys, scratch } from './support/host-harness';

const tmp = scratch('run-banner');
afterAll(() => tmp.cleanup());

/** code-search's definition with `changes` applied, compiled for local-mac into `out`. */
async function compileCodeSearch(name: string, changes: Record<string, unknown>): Promise<string> {
  const definition = {
    ...(JSON.parse(readFileSync(`${REPO}/examples/code-search/agent.json`, 'utf8')) as Record<string, unknown>),
    ...changes,
  };
  const file = tmp.path(`${name}.agent.json`);
  writeFileSync(file, JSON.stringify(definition, null, 2));
  const out = tmp.path(name);
  await compileExample(file, 'local-mac', out);
  return out;
}

async function runUntilReady(
  out: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ url: string; printed: string }> {
  const host = agentdefRun(out, args, env);
  try {
    const url = await host.ready;
    return { url, printed: `${host.stdout()}\n${host.stderr()}` };
  } finally {
    await host.stop();
  }
}

/** The human lines (not the host's JSON events, which are for programs). */
const humanLines = (printed: string) =>
  printed.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('{'));

describe('agentdef run prints', () => {
  it('the address once and no receipts path when receipts are off', async () => {
    const out = await compileCodeSearch('prototype', { lifecycleState: 'tool-prototype' });
    const { url, printed } = await runUntilReady(out, [], isolatedEnv(tmp.path('home-off')));
    const lines = humanLines(printed);
    expect(lines.filter((line) => line.includes(`${url}/`) && !line.includes('agent card'))).toEqual([
      `code-search@2.1.0 (local launcher) serves A2A at ${url}/`,
    ]);
    expect(lines.filter((line) => line.includes('serves A2A at'))).toHaveLength(1);
    expect(printed).not.toMatch(/receipts/i);
    expect(printed).not.toContain('.jsonl');
  });

  it('the receipts path when receipts are signed, still with the address once', async () => {
    const out = await compileCodeSearch('shipped', {});
    const keys = await receiptKeys();
    const receiptsFile = tmp.path('shipped-receipts.jsonl');
    const env = isolatedEnv(tmp.path('home-on'), { AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: keys.secret });
    const { printed } = await runUntilReady(out, ['--receipts', receiptsFile], env);
    const lines = humanLines(printed);
    expect(lines.filter((line) => line.includes('serves A2A at'))).toHaveLength(1);
    expect(lines).toContain(`  receipts:   ${receiptsFile}`);
    expect(printed).not.toContain(keys.secret);
  });
});
