/**
 * `agentdef promote --require-eval [--eval-receipt file]`: promoting to tool-shipped or mcp-resident
 * needs a passing eval receipt (eval-receipt/v1, as `agentdef eval` signs it) for exactly the
 * definition being promoted, signed by the promoting key. Missing, failing, for another definition,
 * signed by another key, edited after signing or not a receipt at all: refused with a diagnostic
 * located at the definition's lifecycleState that names the receipt and what to do, and nothing
 * written (the definition and its receipts file untouched). A passing one promotes; without the
 * flag nothing is required; a demotion is never gated.
 */
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateKey, type KeyStoreOptions, loadPrivateKey } from '../../hosts/node/key-store';
import { signEvalReceipt } from '../../eval/eval-receipt';
import { definitionDigest, LIFECYCLE_RECEIPTS_FILE } from '../../trust/lifecycle-receipt';
import { writeSignedBenchEvents } from '../../eval/__test-support__/signed-bench-events';
import { runPromoteCommandWith } from './promote';
import { captureRun, copyExamplesWorkspace } from './test-support';

const AT = '2026-03-01T12:30:00Z';
const AGENT = 'examples/text-stats/agent.json';
let root: string;
let keyOptions: KeyStoreOptions;
let digest: string;

async function promote(argv: string[]) {
  return captureRun((a, io) => runPromoteCommandWith(a, io, keyOptions), argv, root);
}

async function signedReceipt(
  keyRef: string,
  change: (r: Record<string, unknown>) => void = () => {},
): Promise<Record<string, unknown>> {
  const key = await loadPrivateKey(keyRef, keyOptions);
  if (!key.ok) throw new Error(key.message);
  const unsigned: Record<string, unknown> = {
    receiptVersion: 'eval-receipt/v1',
    definition: { slug: 'text-stats', version: '1.0.0', digest },
    casesDigest: `sha-256:${'a'.repeat(64)}`,
    threshold: 1,
    passed: true,
    totals: {
      cases: 1,
      passed: 1,
      failed: 0,
      passRate: 1,
      score: 1,
      assertions: 2,
      assertionsPassed: 2,
      inputTokens: 0,
      outputTokens: 0,
      modelCalls: 0,
    },
    unscoredInvariants: [],
    cases: [{ id: 'counts', passed: true, score: 1 }],
  };
  change(unsigned);
  return (await signEvalReceipt(unsigned as never, key.privateJwk, key.kid)) as unknown as Record<string, unknown>;
}

/** The receipt of a run whose one case failed (below the threshold of 1). */
function failed(r: Record<string, unknown>): void {
  r['passed'] = false;
  Object.assign(r['totals'] as object, { passed: 0, failed: 1, passRate: 0, score: 0.5, assertionsPassed: 1 });
  r['cases'] = [{ id: 'counts', passed: false, score: 0.5 }];
}

function write(name: string, value: unknown): string {
  const file = join('receipts', name);
  writeFileSync(join(root, file), typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return file;
}

const stage = () => (JSON.parse(readFileSync(join(root, AGENT), 'utf8')) as { lifecycleState: string }).lifecycleState;
const up = ['--to', 'tool-shipped', '--at', AT, '--key', 'keyref:release'];

beforeAll(async () => {
  root = copyExamplesWorkspace('agentdef-promote-eval-');
  mkdirSync(join(root, 'receipts'));
  keyOptions = { env: { AGENTDEF_KEYS_DIR: join(root, 'keys'), AGENTDEF_KEYCHAIN: 'off' }, keychain: 'off' };
  for (const ref of ['keyref:release', 'keyref:other']) {
    const generated = await generateKey(ref, keyOptions);
    if (!generated.ok) throw new Error(generated.message);
  }
  // text-stats is a tool prototype; tool-shipped wants signed receipts.
  const path = join(root, AGENT);
  const definition = JSON.parse(readFileSync(path, 'utf8')) as { telemetryContract: { receiptSigner: string | null } };
  definition.telemetryContract.receiptSigner = 'keyref:release';
  writeFileSync(path, `${JSON.stringify(definition, null, 2)}\n`);
  digest = await definitionDigest(JSON.parse(readFileSync(path, 'utf8')));
  // tool-shipped always needs signed benchmark events of this definition; this file tests the eval gate.
  const release = await loadPrivateKey('keyref:release', keyOptions);
  if (!release.ok) throw new Error(release.message);
  await writeSignedBenchEvents(root, AGENT, { privateJwk: release.privateJwk, kid: release.kid });
});

describe('agentdef promote --require-eval', () => {
  it('refuses each receipt that does not back this definition, located, saying what to do, and writes nothing', async () => {
    const before = readFileSync(join(root, AGENT), 'utf8');
    const cases: [string, string[], string][] = [
      ['missing', ['--require-eval'], 'there is no eval receipt at dist/eval/text-stats/eval.receipt.json'],
      [
        'failing',
        ['--eval-receipt', write('failing.json', await signedReceipt('keyref:release', failed))],
        'did not pass',
      ],
      [
        'another definition',
        [
          '--eval-receipt',
          write(
            'other-digest.json',
            await signedReceipt('keyref:release', (r) => {
              (r['definition'] as { digest: string }).digest = `sha-256:${'b'.repeat(64)}`;
            }),
          ),
        ],
        'scored another definition',
      ],
      [
        'forged with another key',
        ['--eval-receipt', write('forged.json', await signedReceipt('keyref:other'))],
        'not by the promoting key',
      ],
      [
        'edited after signing',
        [
          '--eval-receipt',
          write(
            'edited.json',
            await (async () => {
              const r = await signedReceipt('keyref:release', failed);
              r['passed'] = true;
              return r;
            })(),
          ),
        ],
        'does not verify',
      ],
      ['not a receipt', ['--eval-receipt', write('garbage.json', 'not json at all')], 'is not an eval receipt'],
      [
        'a member twice (read as signed documents are)',
        [
          '--eval-receipt',
          write(
            'duplicated.json',
            JSON.stringify(await signedReceipt('keyref:release', failed)).replace(
              '"passed":false,',
              '"passed":false,"passed":true,',
            ),
          ),
        ],
        'is not an eval receipt',
      ],
    ];
    for (const [what, extra, message] of cases) {
      const run = await promote([AGENT, ...up, ...extra]);
      expect(run.code, `${what}: ${run.stderr}`).toBe(1);
      expect(run.stderr, what).toMatch(/examples\/text-stats\/agent\.json:\d+:\d+/);
      expect(run.stderr, what).toContain('"tool-shipped" requires a passing eval of this definition');
      expect(run.stderr, what).toContain(message);
      expect(run.stderr, what).toContain('agentdef eval examples/text-stats/agent.json');
      expect(readFileSync(join(root, AGENT), 'utf8'), what).toBe(before);
      expect(existsSync(join(root, 'examples/text-stats', LIFECYCLE_RECEIPTS_FILE)), what).toBe(false);
    }
  });

  it('promotes with a passing receipt of this exact definition signed by the promoting key, found where agentdef eval writes it', async () => {
    mkdirSync(join(root, 'dist/eval/text-stats'), { recursive: true });
    writeFileSync(
      join(root, 'dist/eval/text-stats/eval.receipt.json'),
      JSON.stringify(await signedReceipt('keyref:release')),
    );
    const run = await promote([AGENT, ...up, '--require-eval']);
    expect(run.code, run.stderr).toBe(0);
    expect(stage()).toBe('tool-shipped');
    // A demotion is never gated, and without the flag no eval receipt is required (the benchmark events still are).
    const down = await promote([
      AGENT,
      '--to',
      'tool-prototype',
      '--at',
      AT,
      '--key',
      'keyref:release',
      '--require-eval',
      '--eval-receipt',
      'receipts/none.json',
    ]);
    expect(down.code, down.stderr).toBe(0);
    const again = await promote([AGENT, ...up]);
    expect(again.code, again.stderr).toBe(0);
    expect(stage()).toBe('tool-shipped');
  });
});
