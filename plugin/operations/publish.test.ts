import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { validateDefinitionSource } from '../definition/validate-definition';
import { validateOasfRecord } from '../definition/oasf/validate-oasf-record';
import { generateKey } from '../hosts/node/key-store';
import { verifyAgentCard } from '../runtime/card-signature';
import { runPlanCommand } from '../cli/commands/plan';
import { publishDefinition } from './publish';
import { runRegistryCommand } from '../cli/commands/registry';
import { runVerifyCommand } from '../cli/commands/verify';
import { captureRun, gitAt } from '../cli/commands/test-support';

const COMMIT_TIME = '2026-03-04T05:06:07Z';
const WORKER_URL = 'https://text-stats.example.workers.dev';
const FILE = 'agents/text-stats/agent.json';

let root: string;
let keyStore: { env: NodeJS.ProcessEnv; keychain: 'off' };

function git(...args: string[]): string {
  return gitAt(root, COMMIT_TIME, ...args);
}

function definition(): Record<string, any> {
  return JSON.parse(readFileSync(join(root, FILE), 'utf8'));
}

/** Rewrites the definition and commits it. */
function commitDefinition(change: (d: Record<string, any>) => void): void {
  const d = definition();
  change(d);
  writeFileSync(join(root, FILE), `${JSON.stringify(d, null, 2)}\n`);
  git('add', '-A');
  git('commit', '-q', '-m', 'change');
}

const publish = (extra: Partial<Parameters<typeof publishDefinition>[0]> = {}) =>
  publishDefinition({ file: join(root, FILE), workspaceRoot: root, workerUrl: WORKER_URL, keyStore, ...extra });

/** Every file below the registry with its bytes. */
function registryFiles(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, prefix: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (
        readdirSync(dir, { withFileTypes: true })
          .find((e) => e.name === name)!
          .isDirectory()
      )
        walk(path, `${prefix}${name}/`);
      else out[`${prefix}${name}`] = readFileSync(path, 'utf8');
    }
  };
  walk(join(root, 'registry/agents'), '');
  return out;
}

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'agentdef-publish-'));
  writeFileSync(join(root, 'nx.json'), '{}\n');
  mkdirSync(join(root, 'agents/text-stats'), { recursive: true });
  writeFileSync(join(root, FILE), readFileSync(join(__dirname, '../../examples/text-stats/agent.json')));
  keyStore = { env: { AGENTDEF_KEYS_DIR: join(root, '.keys'), AGENTDEF_KEYCHAIN: 'off' }, keychain: 'off' };
  const generated = await generateKey('keyref:acme-receipts', keyStore);
  expect(generated.ok).toBe(true);
  writeFileSync(join(root, '.gitignore'), '.keys/\n');
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'first');
});

afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(root, { recursive: true, force: true });
});

describe('agentdef publish', () => {
  it('registry verify fails an OASF record edited after publishing, naming both files', async () => {
    expect((await publish()).code).toBe(0);
    const file = join(root, 'registry/agents/text-stats/1.0.0.oasf.json');
    const record = JSON.parse(readFileSync(file, 'utf8'));
    record.skills = [{ id: 10302, name: 'language_processing/language_generation/summarization' }];
    writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
    const verified = await captureRun(runRegistryCommand, ['verify'], root);
    expect(verified.code).toBe(1);
    expect(`${verified.stdout}${verified.stderr}`).toContain(
      'metadata.cardExports.oasf is not the published OASF record text-stats/1.0.0.oasf.json',
    );
    rmSync(file);
    const missing = await captureRun(runRegistryCommand, ['verify'], root);
    expect(missing.code).toBe(1);
    expect(`${missing.stdout}${missing.stderr}`).toContain('missing: the snapshot carries an OASF record');
  });

  it('writes the stamped snapshot, its signed exports and the index entry; the registry verifies and kym:// plans', async () => {
    const head = git('rev-parse', 'HEAD').trim();
    const outcome = await publish();
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain(`published text-stats@1.0.0 (sha256:`);
    expect(outcome.stdout).toContain(`from commit ${head} at ${COMMIT_TIME}`);
    expect(Object.keys(registryFiles())).toEqual([
      'index.json',
      'text-stats/1.0.0.agentfacts.vc.json',
      'text-stats/1.0.0.card.json',
      'text-stats/1.0.0.json',
      'text-stats/1.0.0.kym.json',
      'text-stats/1.0.0.oasf.json',
    ]);

    const snapshotText = readFileSync(join(root, 'registry/agents/text-stats/1.0.0.json'), 'utf8');
    const snapshot = JSON.parse(snapshotText);
    expect(snapshot.metadata.provenance.commitSha).toBe(head);
    const card = JSON.parse(readFileSync(join(root, 'registry/agents/text-stats/1.0.0.card.json'), 'utf8'));
    expect(snapshot.metadata.cardExports.agentCard).toEqual(card);
    // The OASF record next to the card: the snapshot's, validated, created at the commit, with the signed card as its A2A module.
    const oasf = JSON.parse(readFileSync(join(root, 'registry/agents/text-stats/1.0.0.oasf.json'), 'utf8'));
    expect(snapshot.metadata.cardExports.oasf).toEqual(oasf);
    expect(validateOasfRecord(oasf)).toEqual([]);
    expect(oasf.created_at).toBe(COMMIT_TIME);
    expect(oasf.modules.find((m: { name: string }) => m.name === 'integration/a2a').data.card_data).toEqual(card);
    // The snapshot validates, the card-exports and oasf-export rules included.
    expect(
      validateDefinitionSource(snapshotText, 'snapshot.json', 'json').diagnostics.filter((d) => d.severity === 'error'),
    ).toEqual([]);
    const publicJwk = JSON.parse(readFileSync(join(root, '.keys/acme-receipts.public.jwk.json'), 'utf8'));
    expect((await verifyAgentCard(card, () => publicJwk)).ok).toBe(true);
    const kym = JSON.parse(readFileSync(join(root, 'registry/agents/text-stats/1.0.0.kym.json'), 'utf8'));
    const profile = kym.capabilities.extensions.find(
      (e: { uri: string }) => e.uri === 'urn:agentdef:extension:runtime-profile:v1',
    );
    const index = JSON.parse(readFileSync(join(root, 'registry/agents/index.json'), 'utf8'));
    expect(index.snapshots).toEqual([
      {
        slug: 'text-stats',
        version: '1.0.0',
        id: snapshot.identity.id,
        versionId: snapshot.identity.versionId,
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    ]);

    const credential = await captureRun(
      runVerifyCommand,
      ['registry/agents/text-stats/1.0.0.agentfacts.vc.json', '--at', '2026-03-04T06:00:00Z'],
      root,
    );
    expect(credential.code).toBe(0);
    const verified = await captureRun(runRegistryCommand, ['verify'], root);
    expect(verified.stderr).toBe('');
    expect(verified.stdout).toContain('1 of 1 published versions verified in registry/agents');
    expect(verified.code).toBe(0);
    const planned = await captureRun(runPlanCommand, ['kym://agents/text-stats@1.0.0', '--format', 'json'], root);
    expect(planned.code).toBe(0);
    const plan = JSON.parse(planned.stdout);
    expect(plan.nodes[0]).toMatchObject({
      slug: 'text-stats',
      version: '1.0.0',
      file: 'registry/agents/text-stats/1.0.0.json',
    });
    // The KYM registration names the runtimes the plan supports.
    expect(profile.params).toMatchObject({
      hosts: plan.runtime.hosts,
      target: plan.target,
      runtimeCapabilityClass: 'workers-only',
    });
    expect(plan.runtime.hosts.length).toBeGreaterThan(0);
  });

  it('is a byte-identical no-op when the same content is published again', async () => {
    expect((await publish()).code).toBe(0);
    const before = registryFiles();
    const again = await publish();
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      /^text-stats@1\.0\.0 is already published with identical content \(sha256:[0-9a-f]{64}\): nothing to do\n$/,
    );
    expect(registryFiles()).toEqual(before);
  });

  it('refuses a definition with uncommitted changes and writes nothing', async () => {
    writeFileSync(join(root, FILE), readFileSync(join(root, FILE), 'utf8').replace('A deterministic', 'An edited'));
    const outcome = await publish();
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(`${FILE} has uncommitted changes`);
    expect(existsSync(join(root, 'registry'))).toBe(false);
  });

  it('refuses a definition git ignores (no commit holds it, whatever HEAD is) and writes nothing', async () => {
    writeFileSync(join(root, '.gitignore'), '.keys/\nscratch/\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'ignore scratch/');
    mkdirSync(join(root, 'scratch/text-stats'), { recursive: true });
    writeFileSync(
      join(root, 'scratch/text-stats/agent.json'),
      readFileSync(join(root, FILE), 'utf8').replace('"slug": "text-stats"', '"slug": "scratch-stats"'),
    );
    const outcome = await publish({ file: join(root, 'scratch/text-stats/agent.json') });
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toContain('scratch/text-stats/agent.json is ignored by git');
    expect(outcome.code).toBe(1);
    expect(existsSync(join(root, 'registry'))).toBe(false);
  });

  it('refuses a Worker without --worker-url before reading git or the key, saying how to give the URL; it never guesses one', async () => {
    writeFileSync(
      join(root, FILE),
      readFileSync(join(root, FILE), 'utf8').replace('A deterministic', 'An uncommitted'),
    );
    rmSync(join(root, '.keys'), { recursive: true });
    const outcome = await publishDefinition({ file: join(root, FILE), workspaceRoot: root, keyStore });
    expect(outcome.code).toBe(2);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toContain(
      'text-stats@1.0.0 is served as a Cloudflare Worker, and its signed card and AgentFacts credential name the URL it answers at',
    );
    expect(outcome.stderr).toContain(
      `agentdef publish ${FILE} --worker-url https://text-stats.<your-subdomain>.workers.dev`,
    );
    expect(outcome.stderr).toContain(
      'nx run text-stats:publish --worker-url=https://text-stats.<your-subdomain>.workers.dev',
    );
    expect(outcome.stderr).toContain("the publish target's workerUrl option, in agents/text-stats/project.json");
    expect(outcome.stderr).toContain(
      '{ "targets": { "publish": { "options": { "workerUrl": "https://text-stats.<your-subdomain>.workers.dev" } } } }',
    );
    expect(outcome.stderr).toMatch(/Nothing was published\n$/);
    expect(outcome.stderr).not.toMatch(/uncommitted|keys generate/);
    expect(existsSync(join(root, 'registry'))).toBe(false);
  });

  it('requires the signing key and says how to create it', async () => {
    rmSync(join(root, '.keys'), { recursive: true });
    const outcome = await publish();
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('agentdef keys generate keyref:acme-receipts');
    expect(outcome.stderr).not.toMatch(/"d"/);
    expect(existsSync(join(root, 'registry'))).toBe(false);
  });

  it('refuses the same version with other content, showing both digests', async () => {
    expect((await publish()).code).toBe(0);
    commitDefinition((d) => (d.metadata.description = 'Another description.'));
    const outcome = await publish();
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toMatch(
      /text-stats@1\.0\.0 is already published with other content: the registry holds sha256:[0-9a-f]{64}, this would be sha256:[0-9a-f]{64}/,
    );
  });

  it('refuses a bump smaller than the changes require, a reused versionId and another identity.id', async () => {
    expect((await publish()).code).toBe(0);
    commitDefinition((d) => {
      d.identity.versionSemver = '1.0.1';
      d.capabilityContract.invariants = [d.capabilityContract.invariants[0]];
    });
    const small = await publish();
    expect(small.code).toBe(1);
    expect(small.stderr).toContain(
      'text-stats@1.0.1 against the published 1.0.0: the changes require a major bump, but 1.0.0 → 1.0.1 is a patch bump',
    );
    expect(small.stderr).toContain('major removed /capabilityContract/invariants/1');
    expect(small.stderr).toContain('identity.versionId 01KQXTGGAHPQXPXEVVWRWT04ZM is already used by text-stats@1.0.0');
    commitDefinition((d) => {
      d.identity.versionSemver = '2.0.0';
      d.identity.versionId = '01KQXTGGAHPQXPXEVVWRWT04ZN';
      d.identity.id = '01KQB8J5284X2B3T395NAM3B7E';
    });
    const otherId = await publish();
    expect(otherId.code).toBe(1);
    expect(otherId.stderr).toContain(
      'identity.id 01KQB8J5284X2B3T395NAM3B7E is not the id of the published versions of text-stats',
    );
    commitDefinition((d) => (d.identity.id = '01KQB8J5284X2B3T395NAM3B7D'));
    const major = await publish();
    expect(major.stderr).toBe('');
    expect(major.code).toBe(0);
    expect((await captureRun(runRegistryCommand, ['verify'], root)).stdout).toContain(
      '2 of 2 published versions verified',
    );
  });
});

describe('the registry is tamper-evident', () => {
  it('fails the plan of a snapshot edited after publishing, naming both digests; registry verify fails too', async () => {
    expect((await publish()).code).toBe(0);
    const path = join(root, 'registry/agents/text-stats/1.0.0.json');
    writeFileSync(path, readFileSync(path, 'utf8').replace('"Text stats"', '"Text stat$"'));
    const planned = await captureRun(runPlanCommand, ['kym://agents/text-stats@1.0.0'], root);
    expect(planned.code).toBe(1);
    expect(planned.stderr).toMatch(
      /registry\/agents\/text-stats\/1\.0\.0\.json was changed after it was published: registry\/agents\/index\.json records sha256:[0-9a-f]{64}, the snapshot is sha256:[0-9a-f]{64}/,
    );

    // A pin to it fails at the pin, located.
    const pinner = definition();
    pinner.identity.slug = 'pinner';
    pinner.composition = { kind: 'dag', nodes: [{ slug: 'text-stats', version: '1.0.0' }], edges: [] };
    mkdirSync(join(root, 'agents/pinner'));
    rmSync(join(root, 'agents/text-stats'), { recursive: true });
    writeFileSync(join(root, 'agents/pinner/agent.json'), JSON.stringify(pinner, null, 2));
    const pinned = await captureRun(runPlanCommand, ['agents/pinner/agent.json'], root);
    expect(pinned.code).toBe(1);
    expect(pinned.stderr).toContain('--> agents/pinner/agent.json:');
    expect(pinned.stderr).toContain('was changed after it was published');

    const verified = await captureRun(runRegistryCommand, ['verify'], root);
    expect(verified.code).toBe(1);
    expect(verified.stderr).toMatch(
      /registry\/agents\/text-stats\/1\.0\.0\.json: changed after publishing: index\.json records sha256:[0-9a-f]{64}, the snapshot is sha256:[0-9a-f]{64}/,
    );
  });

  it('fails registry verify when a card carries a swapped signature', async () => {
    expect((await publish()).code).toBe(0);
    const cardPath = join(root, 'registry/agents/text-stats/1.0.0.card.json');
    const kymPath = join(root, 'registry/agents/text-stats/1.0.0.kym.json');
    const card = JSON.parse(readFileSync(cardPath, 'utf8'));
    const kym = JSON.parse(readFileSync(kymPath, 'utf8'));
    card.signatures[0].signature = kym.signatures[0].signature;
    writeFileSync(cardPath, `${JSON.stringify(card, null, 2)}\n`);
    const verified = await captureRun(runRegistryCommand, ['verify'], root);
    expect(verified.code).toBe(1);
    expect(verified.stderr).toContain(
      'registry/agents/text-stats/1.0.0.card.json: signature: signatures[0]: the signature does not match the card',
    );
    expect(verified.stdout).toContain('0 of 1 published versions verified');
  });

  it('exits 2 when there is no registry to check', async () => {
    const verified = await captureRun(runRegistryCommand, ['verify'], root);
    expect(verified.code).toBe(2);
    expect(verified.stderr).toBe('error: cannot read the registry registry/agents\n');
  });
});
