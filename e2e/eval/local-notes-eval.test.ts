/**
 * `agentdef eval` on a real example, as a user runs it: the built `agentdef` binary as a child
 * process scores local-notes (a local launcher: Ollama and the notes MCP server on this machine) on
 * examples/local-notes/evals with no model server, no API key and no network: every model
 * exchange, the agent's and the grader's (its invariants and its rubric are model-graded), is
 * replayed from examples/local-notes/recordings, the folder `agentdef eval` replays by default
 * (recorded with `node scripts/record-eval-examples.mjs` against the scripted stand-ins). It compiles, serves, asks the case over A2A, prints the table,
 * writes eval.json and junit.xml, signs the eval receipt (which `agentdef verify` accepts and
 * whose tampering it refuses), covers both invariants, exits 1 below the threshold and 0 at it,
 * and is deterministic: a second run writes the same eval.json and receipt bytes (latency aside,
 * which eval.json does not hold). Nothing is written outside the test's scratch folder.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, REPO } from '../local/support/host-harness';
import { runAgentdef } from '../support/run-cli';

let work: string;
let env: NodeJS.ProcessEnv;
let publicKeyFile: string;
const rel = (path: string) => relative(REPO, path);

beforeAll(() => {
  mkdirSync(join(REPO, 'tmp'), { recursive: true });
  work = mkdtempSync(join(REPO, 'tmp', 'eval-local-notes-'));
  const base: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env))
    if (!/^(AGENTDEF_|ANTHROPIC_|OPENAI_|OLLAMA_|NX_)/.test(name)) base[name] = value;
  env = {
    ...base,
    ...isolatedEnv(join(work, 'home'), {
      AGENTDEF_KEYS_DIR: join(work, 'keys'),
      AGENTDEF_STATE_DIR: join(work, 'state'),
      WRANGLER_LOG_PATH: join(work, 'wrangler-logs'),
    }),
  };
  // The definition's signing key (keyref:mia-laptop) signs the run receipts and the eval receipt.
  const generated = runAgentdef(['keys', 'generate', 'keyref:mia-laptop'], REPO, env);
  expect(generated.status, generated.stderr).toBe(0);
  const exported = runAgentdef(['keys', 'export-public', 'keyref:mia-laptop'], REPO, env);
  expect(exported.status, exported.stderr).toBe(0);
  publicKeyFile = join(work, 'mia-laptop.public.jwk');
  writeFileSync(publicKeyFile, exported.stdout);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function evaluate(out: string, extra: string[] = []) {
  return runAgentdef(['eval', 'examples/local-notes', '--out', rel(join(work, out)), ...extra], REPO, env);
}

describe('agentdef eval examples/local-notes', () => {
  it('scores the example on replayed models, with both assertion kinds, and writes JSON, JUnit and a signed receipt', () => {
    const run = evaluate('first');
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toContain('models: replayed from examples/local-notes/recordings');
    expect(run.stdout).toContain('offsite-venue');
    expect(run.stderr).not.toMatch(/model request not recorded/);
    const report = JSON.parse(readFileSync(join(work, 'first', 'eval.json'), 'utf8'));
    const text = JSON.stringify(report);
    // Deterministic and model-graded assertions, each passed; the grader's reasoning kept.
    for (const type of [
      'contains',
      'regex',
      'tool-called',
      'no-egress-outside-allowlist',
      'max-cost',
      'invariant',
      'rubric',
    ])
      expect(text).toContain(`"type":"${type}"`);
    expect(text).toContain('the answer names the note it quotes');
    expect(text).not.toContain(work);
    const junit = readFileSync(join(work, 'first', 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites[^>]*>/);
    expect(junit).toContain('offsite-venue');
    expect(junit).not.toContain('<failure');
    // Both invariants are scored: none is reported unscored.
    const receipt = JSON.parse(readFileSync(join(work, 'first', 'eval.receipt.json'), 'utf8'));
    expect(receipt).toMatchObject({
      receiptVersion: 'eval-receipt/v1',
      definition: { slug: 'local-notes', version: '0.3.0' },
      passed: true,
      threshold: 1,
      unscoredInvariants: [],
      cases: [{ id: 'offsite-venue', passed: true }],
    });
    expect(receipt.cases[0].runReceiptDigest).toMatch(/^sha-256:[0-9a-f]{64}$/);
    const verified = runAgentdef(
      ['verify', join(work, 'first', 'eval.receipt.json'), '--key', publicKeyFile],
      REPO,
      env,
    );
    expect(verified.status, `${verified.stdout}\n${verified.stderr}`).toBe(0);
  });

  it('scores the same again: the reports differ only in what names the runs and their latencies, and verify refuses an edited receipt', () => {
    const run = evaluate('second');
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const read = (folder: string, file: string) => readFileSync(join(work, folder, file), 'utf8');
    // A run's id, its receipt's digest (the receipt carries its run id and time) and its latency are its own.
    const report = (folder: string) => {
      const value = JSON.parse(read(folder, 'eval.json'));
      for (const c of value.cases) {
        expect(c.runId).toMatch(/^[0-9A-Z]{26}$/);
        expect(c.receiptDigest).toMatch(/^(sha-256:)?[0-9a-f]{64}$/);
        delete c.runId;
        delete c.receiptDigest;
        delete c.latencyMs;
      }
      return value;
    };
    expect(report('second')).toEqual(report('first'));
    const receipt = (folder: string) => {
      const value = JSON.parse(read(folder, 'eval.receipt.json'));
      for (const c of value.cases) delete c.runReceiptDigest;
      delete value.signature.value;
      return value;
    };
    expect(receipt('second')).toEqual(receipt('first'));
    const junit = (folder: string) => read(folder, 'junit.xml').replace(/ time="[0-9.]+"/g, '');
    expect(junit('second')).toBe(junit('first'));
    const tampered = JSON.parse(read('second', 'eval.receipt.json'));
    tampered.totals.passRate = 0.5;
    writeFileSync(join(work, 'tampered.json'), JSON.stringify(tampered, null, 2));
    const refused = runAgentdef(['verify', join(work, 'tampered.json'), '--key', publicKeyFile], REPO, env);
    expect(refused.status, `${refused.stdout}\n${refused.stderr}`).toBe(1);
  });

  it('exits 1 below the threshold with a failing case in the JUnit XML, and 0 when the threshold allows it', () => {
    const failing = join(work, 'failing.yaml');
    writeFileSync(
      failing,
      [
        'schemaVersion: eval-cases/v1',
        'cases:',
        '  - id: wrong-venue',
        '    input:',
        '      text: what did we decide about the Q3 offsite venue?',
        '    assertions:',
        '      - type: contains',
        '        value: Lisbon',
        '      - type: tool-not-called',
        '        tool: search_notes',
        '',
      ].join('\n'),
    );
    const cases = ['--cases', 'examples/local-notes/evals/notes.yaml', '--cases', rel(failing)];
    const below = evaluate('below', cases);
    expect(below.status, `${below.stdout}\n${below.stderr}`).toBe(1);
    expect(below.stdout).toContain('wrong-venue');
    const junit = readFileSync(join(work, 'below', 'junit.xml'), 'utf8');
    expect(junit).toContain('<failure');
    expect(junit).toContain('Lisbon');
    expect(JSON.parse(readFileSync(join(work, 'below', 'eval.receipt.json'), 'utf8')).passed).toBe(false);
    const allowed = evaluate('allowed', [...cases, '--threshold', '0.5']);
    expect(allowed.status, `${allowed.stdout}\n${allowed.stderr}`).toBe(0);
  });

  it('writes into no folder it did not make: a user file named like a report is left as it was, nothing compiled', () => {
    const mine = join(work, 'mine');
    mkdirSync(mine, { recursive: true });
    writeFileSync(join(mine, 'junit.xml'), '<testsuites name="my own"/>\n');
    const run = evaluate('mine');
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/refusing to write the eval to \S*mine: it holds files agentdef eval did not write/);
    expect(readFileSync(join(mine, 'junit.xml'), 'utf8')).toBe('<testsuites name="my own"/>\n');
    expect(readdirSync(mine)).toEqual(['junit.xml']);
  });

  it('refuses bad cases with a located diagnostic, and writes nothing', () => {
    const bad = join(work, 'bad.yaml');
    writeFileSync(
      bad,
      'schemaVersion: eval-cases/v1\ncases:\n  - id: x\n    input:\n      text: hi\n    assertions:\n      - type: tool-called\n        tool: no_such_tool\n',
    );
    const run = evaluate('bad', ['--cases', rel(bad)]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/bad\.yaml:\d+:\d+/);
    expect(run.stderr).toContain('no_such_tool');
    expect(() => readFileSync(join(work, 'bad', 'eval.json'))).toThrow();
  });
});
