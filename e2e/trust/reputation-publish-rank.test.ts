/**
 * Reputation end to end, through the real `agentdef` binary (e2e/support/run-cli.ts): receipts
 * signed with the key store's key (the definition's receipt signer) and with a stranger's key,
 * forged, unsigned, replayed, for another version, malformed; `agentdef reputation` scores only
 * what verifies against the trust folder and lists every other receipt by reason; `agentdef publish
 * --reputation` signs the score into the AgentFacts credential, which `agentdef verify` accepts;
 * `agentdef registry rank --skill` orders two published agents by their attested scores.
 * HOME, the keys folder and the workspace are in a temp folder; the keychain is off.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey, loadPrivateKey } from '../../plugin/hosts/node/key-store';
import {
  evalLine,
  newSigner,
  runLine,
  type TestSigner,
} from '../../plugin/reputation/__test-support__/signed-receipts';
import { gitAt } from '../../plugin/cli/commands/test-support';
import { runAgentdef } from '../support/run-cli';

const COMMIT_TIME = '2026-03-31T00:00:00Z';
const WORKER_URL = 'https://text-stats.example.workers.dev';

let root: string;
let env: NodeJS.ProcessEnv;
let signer: TestSigner;
let stranger: TestSigner;

const cli = (...args: string[]) => runAgentdef(args, root, env);

function addAgent(folder: string, change: (d: Record<string, any>) => void): void {
  const d = JSON.parse(readFileSync(join(__dirname, '../../examples/text-stats/agent.json'), 'utf8'));
  change(d);
  mkdirSync(join(root, 'agents', folder), { recursive: true });
  writeFileSync(join(root, 'agents', folder, 'agent.json'), `${JSON.stringify(d, null, 2)}\n`);
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'agentdef-reputation-'));
  env = {
    HOME: root,
    XDG_CONFIG_HOME: join(root, '.config'),
    XDG_CACHE_HOME: join(root, '.cache'),
    AGENTDEF_KEYS_DIR: join(root, '.keys'),
    AGENTDEF_KEYCHAIN: 'off',
    NO_COLOR: '1',
  };
  const keyStore = { env, keychain: 'off' as const };
  expect((await generateKey('keyref:acme-receipts', keyStore)).ok).toBe(true);
  const loaded = await loadPrivateKey('keyref:acme-receipts', keyStore);
  if (!loaded.ok) throw new Error(loaded.message);
  signer = { privateJwk: loaded.privateJwk, publicJwk: loaded.publicJwk as JsonWebKey, kid: loaded.kid };
  stranger = await newSigner();

  // The trust folder: the receipt signer's public key, for every agent.
  mkdirSync(join(root, 'trust'), { mode: 0o700 });
  writeFileSync(join(root, 'trust', 'acme-receipts.json'), JSON.stringify(signer.publicJwk), { mode: 0o600 });
  chmodSync(join(root, 'trust'), 0o700);

  writeFileSync(join(root, 'nx.json'), '{}\n');
  addAgent('text-stats', () => {});
  addAgent('text-stats-b', (d) => {
    d.identity.slug = 'text-stats-b';
    d.identity.id = '01KQB8J5284X2B3T395NAM3B7E';
    d.identity.versionId = '01KQXTGGAHPQXPXEVVWRWT04ZN';
    d.identity.name = 'Text stats B';
  });
  addAgent('text-stats-c', (d) => {
    d.identity.slug = 'text-stats-c';
    d.identity.id = '01KQB8J5284X2B3T395NAM3B7F';
    d.identity.versionId = '01KQXTGGAHPQXPXEVVWRWT04ZP';
    d.identity.name = 'Text stats C';
  });
  const good = (runId: string, card = 'text-stats') => runLine(signer, { runId, card, skill: 'text.stats' });
  const bad = (runId: string, card = 'text-stats') =>
    runLine(signer, { runId, card, skill: 'text.stats', status: 'error' });
  const forged = JSON.parse(await bad('a5'));
  forged.outcome = { stopReason: 'answer', status: 'answer' };
  const unsigned = JSON.parse(await good('a6'));
  delete unsigned.signature;
  mkdirSync(join(root, 'receipts'));
  writeFileSync(
    join(root, 'receipts', 'text-stats.jsonl'),
    `${[
      await good('a1'),
      await good('a2'),
      await good('a3'),
      await bad('a4'),
      JSON.stringify(forged),
      JSON.stringify(unsigned),
      await runLine(stranger, { runId: 'a7', card: 'text-stats', skill: 'text.stats' }),
      await good('a1'),
      await runLine(signer, {
        runId: 'a1',
        card: 'text-stats',
        skill: 'text.stats',
        version: '2.0.0',
        status: 'error',
      }),
      'not a receipt',
    ].join('\n')}\n`,
  );
  writeFileSync(
    join(root, 'receipts', 'text-stats.eval.receipt.json'),
    await evalLine(signer, { slug: 'text-stats', passed: 9, cases: 10 }),
  );
  writeFileSync(
    join(root, 'receipts', 'text-stats-b.jsonl'),
    `${[await good('b1', 'text-stats-b'), await bad('b2', 'text-stats-b'), await bad('b3', 'text-stats-b')].join('\n')}\n`,
  );
  writeFileSync(join(root, '.gitignore'), '.keys/\n.config/\n.cache/\n');
  gitAt(root, COMMIT_TIME, 'init', '-q');
  gitAt(root, COMMIT_TIME, 'add', '-A');
  gitAt(root, COMMIT_TIME, 'commit', '-q', '-m', 'agents');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('agentdef reputation, publish --reputation, verify, registry rank (real CLI)', () => {
  it('scores only verified, trusted, first-seen receipts and lists every other one by reason', () => {
    const json = cli('reputation', 'receipts', '--trust', 'trust', '--at', COMMIT_TIME, '--format', 'json');
    expect(json.status, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout);
    const a = report.agents.find((x: { agent: string }) => x.agent === 'text-stats@1.0.0');
    expect(a.receipts).toEqual({ run: 4, eval: 1, lifecycle: 0, attributed: 0 });
    expect(a.successRate).toBe(0.75);
    expect(a.evalPassRate).toBe(0.9);
    // 0.6 × (3 + 1) / (4 + 2) + 0.4 × (9 + 1) / (10 + 2)
    expect(a.score).toBe(Math.round((0.6 * (4 / 6) + 0.4 * (10 / 12)) * 1e4) / 1e4);
    expect(report.ignored).toEqual({
      'forged-signature': 1,
      unsigned: 1,
      'untrusted-signer': 1,
      replayed: 1,
      malformed: 1,
      'outside-window': 0,
    });
    expect(report.agents.map((x: { agent: string }) => x.agent)).toEqual([
      'text-stats-b@1.0.0',
      'text-stats@1.0.0',
      'text-stats@2.0.0',
    ]);

    const text = cli('reputation', 'receipts', '--trust', 'trust', '--at', COMMIT_TIME);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^text-stats@1\.0\.0\s+0\.7333\s+0\.7500\s+0\.9000\s/m);
    expect(text.stdout).toMatch(
      /not counted: forged-signature 1, unsigned 1, untrusted-signer 1, replayed 1, malformed 1, outside-window 0/,
    );
    expect(text.stderr).toMatch(/^receipts\/text-stats\.jsonl:5: forged-signature at \/signature\/value: /m);
    expect(text.stderr).toMatch(/^receipts\/text-stats\.jsonl:6: unsigned at \/signature: /m);
    expect(text.stderr).toMatch(/^receipts\/text-stats\.jsonl:7: untrusted-signer at \/signature\/kid: /m);
    expect(text.stderr).toMatch(/^receipts\/text-stats\.jsonl:(1|8): replayed: /m);
    expect(text.stderr).toMatch(/^receipts\/text-stats\.jsonl:10: malformed/m);
  });

  it('without a trust folder nothing is trusted but the local key store, and the same score comes out', () => {
    const run = cli('reputation', 'receipts', '--at', COMMIT_TIME, '--format', 'json');
    expect(run.status, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.agents.find((x: { agent: string }) => x.agent === 'text-stats@1.0.0').score).toBe(0.7333);
  });

  it('publishes the score in the credential, which verify accepts, and rank orders by it', () => {
    for (const slug of ['text-stats', 'text-stats-b']) {
      const published = cli(
        'publish',
        `agents/${slug}/agent.json`,
        '--worker-url',
        WORKER_URL,
        '--reputation',
        'receipts',
        '--trust',
        'trust',
      );
      expect(published.status, published.stderr).toBe(0);
      expect(published.stdout).toMatch(
        /reputation 0\.\d+ from \d+ receipts \(2026-03-01T00:00:00Z\/2026-03-31T00:00:00Z\)/,
      );
    }
    const file = 'registry/agents/text-stats/1.0.0.agentfacts.vc.json';
    const credential = JSON.parse(readFileSync(join(root, file), 'utf8'));
    expect(credential.credentialSubject.reputation).toEqual({
      scheme: 'urn:agentdef:reputation:receipt-scored:v1',
      attestations: [
        {
          issuer: credential.issuer,
          score: 0.7333,
          receiptCount: 5,
          asOf: '2026-03-31T00:00:00Z',
          window: { from: '2026-03-01T00:00:00Z', until: '2026-03-31T00:00:00Z' },
          receiptCounts: { run: 4, eval: 1, lifecycle: 0, attributed: 0 },
          decayPerLayer: 0.5,
        },
      ],
    });
    // Published again: identical content, and a published credential is never rewritten (it says so).
    const again = cli(
      'publish',
      'agents/text-stats/agent.json',
      '--worker-url',
      WORKER_URL,
      '--reputation',
      'receipts',
      '--trust',
      'trust',
    );
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/its AgentFacts credential is published already and never rewritten/);
    expect(JSON.parse(readFileSync(join(root, file), 'utf8'))).toEqual(credential);
    // No receipt of this version counts: refused, nothing written.
    const unscored = cli(
      'publish',
      'agents/text-stats-c/agent.json',
      '--worker-url',
      WORKER_URL,
      '--reputation',
      'receipts',
      '--trust',
      'trust',
    );
    expect(unscored.status).toBe(1);
    expect(unscored.stderr).toMatch(/no receipt for text-stats-c@1\.0\.0 was counted .*nothing was published/);
    expect(existsSync(join(root, 'registry/agents/text-stats-c'))).toBe(false);

    const verified = cli('verify', file, '--at', COMMIT_TIME);
    expect(verified.status, verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/verified credential \(signed by did:key:z6Mk\w+\)/);

    const registry = cli('registry', 'verify');
    expect(registry.status, registry.stderr).toBe(0);

    const rank = cli('registry', 'rank', '--skill', 'statistics');
    expect(rank.status, rank.stderr).toBe(0);
    // text-stats-b: (1 + 1) / (3 + 2) = 0.4
    expect(rank.stdout).toBe(
      [
        '1. text-stats@1.0.0  score 0.7333  receipts 5  as of 2026-03-31T00:00:00Z',
        '2. text-stats-b@1.0.0  score 0.4000  receipts 3  as of 2026-03-31T00:00:00Z',
        '',
      ].join('\n'),
    );
    const none = cli('registry', 'rank', '--skill', 'no-such-tag');
    expect(none.status).toBe(1);

    // A raised score, edited into the published credential, no longer verifies and is not ranked.
    const edited = JSON.parse(
      readFileSync(join(root, 'registry/agents/text-stats-b/1.0.0.agentfacts.vc.json'), 'utf8'),
    );
    edited.credentialSubject.reputation.attestations[0].score = 0.99;
    writeFileSync(
      join(root, 'registry/agents/text-stats-b/1.0.0.agentfacts.vc.json'),
      `${JSON.stringify(edited, null, 2)}\n`,
    );
    expect(cli('verify', 'registry/agents/text-stats-b/1.0.0.agentfacts.vc.json', '--at', COMMIT_TIME).status).toBe(1);
    const after = cli('registry', 'rank', '--skill', 'statistics', '--format', 'json');
    expect(after.status).toBe(1);
    const ranked = JSON.parse(after.stdout);
    expect(ranked.ranked.map((c: { slug: string }) => c.slug)).toEqual(['text-stats']);
    expect(ranked.problems.map((p: { file: string }) => p.file)).toEqual(['text-stats-b/1.0.0.agentfacts.vc.json']);
  });
});
