/**
 * The trust plane as users meet it (issue 11, "Done when"): agentdef packed with `npm pack`,
 * installed into one fresh Nx workspace that is a real git repository, driven by the real `nx` CLI
 * where Nx is what is tested (the generators, the promote and publish targets once each, a plan
 * through a pin; every target's exit status is e2e/nx-exit-status.test.ts's), the same operations
 * otherwise through the `agentdef` bin the install linked (what `npx agentdef` runs; the page
 * tests of e2e/docs run `npx` itself). In order: a generated agent gets its signing key; it is promoted one
 * lifecycle stage with a signed transition receipt (a jump is refused); it is committed and
 * published (snapshot, signed card, AgentFacts credential, KYM registration) and everything
 * verifies, while a one-byte edit of the snapshot fails `registry verify` and every plan through
 * it; a second version is refused until its bump is big enough for its diff; and a legacy A2A card
 * is imported into a definition that fails validation exactly at its TODO fields. Keys live in a
 * folder inside the test's temp folder (keychain off); no command's output ever holds the private
 * key's `d`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CommandResult,
  createWorkspace,
  openWorkspace,
  packAgentdef,
  type TempWorkspace,
} from './support/nx-workspace';
import { HUNG_CHILD_MS } from './support/hung-child';

const EXAMPLE_CARDS = join(__dirname, 'fixtures', 'conformance', 'a2a', 'examples');
const WORKER_URL = '--workerUrl=https://summarizer.example.workers.dev';
const CLI_WORKER_URL = '--worker-url=https://summarizer.example.workers.dev';
const CONSUMER = 'consumer/agent.json';
const AGENT = 'summarizer';
const DEFINITION = `${AGENT}/agent.json`;
const RECEIPTS = `${AGENT}/lifecycle.receipts.jsonl`;
const REGISTRY = `registry/agents/${AGENT}`;

interface Definition {
  identity: {
    id: string;
    slug: string;
    versionSemver: string;
    versionId: string;
    signingKeyRef: string;
    kymRef?: string;
  };
  capabilityContract: { skills: Array<Record<string, unknown>> };
  lifecycleState: string;
  metadata: { notes?: Record<string, unknown> };
}

/** Every output of every command this file runs, searched for the private key at the end. */
const outputs: string[] = [];

const recorded = (r: CommandResult): CommandResult => {
  outputs.push(r.stdout, r.stderr);
  return r;
};

const ok = (r: CommandResult) => {
  expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  return r;
};

const refused = (r: CommandResult) => {
  expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(1);
  return `${r.stdout}${r.stderr}`;
};

/** RFC 7638 thumbprint of an Ed25519 public JWK, computed here independently of agentdef. */
const thumbprint = (x: string) =>
  createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest('base64url');

/** JSON Pointers of every `{ "TODO": "…" }` marker in a document. */
function todoPointers(value: unknown, pointer = ''): string[] {
  if (value === null || typeof value !== 'object') return [];
  const entries = Object.entries(value as Record<string, unknown>);
  if (!Array.isArray(value) && entries.length === 1 && entries[0]![0] === 'TODO' && typeof entries[0]![1] === 'string')
    return [pointer];
  return entries.flatMap(([key, child]) =>
    todoPointers(child, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`),
  );
}

/** The pointers the import-card generator lists under "fields to complete" (the lines up to the next heading). */
function listedTodoFields(output: string): string[] {
  const lines = output.slice(output.indexOf('fields to complete')).split('\n').slice(1);
  const listed: string[] = [];
  for (const line of lines) {
    const pointer = /^ {2}(\/\S+): /.exec(line)?.[1];
    if (pointer === undefined) break;
    listed.push(pointer);
  }
  return listed;
}

/** Every file under `dir` (but node_modules and .git), relative, with its text. */
function workspaceFiles(dir: string, prefix = ''): Array<[string, string]> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry): Array<[string, string]> => {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory())
      return entry.name === 'node_modules' || entry.name === '.git' ? [] : workspaceFiles(join(dir, entry.name), rel);
    return entry.isFile() ? [[rel, readFileSync(join(dir, entry.name), 'latin1')]] : [];
  });
}

describe('the trust plane in a fresh Nx workspace: keys, promote, publish, verify, diff, import', () => {
  let ws: TempWorkspace;
  let keysDir: string;
  let signingRef: string;
  let kid: string;

  const nx = (args: string[]) => recorded(ws.nx(args));
  /** The `agentdef` bin the install linked into node_modules/.bin (what `npx agentdef …` runs). */
  const bin = () => join(ws.dir, 'node_modules', '.bin', 'agentdef');
  const agentdef = (args: string[]) => {
    const r = spawnSync(bin(), args, { cwd: ws.dir, env: ws.env, encoding: 'utf8', timeout: HUNG_CHILD_MS });
    return recorded({ status: r.status, stdout: r.stdout, stderr: r.stderr });
  };
  const git = (args: string[]) => execFileSync('git', args, { cwd: ws.dir, env: ws.env, encoding: 'utf8' });
  const read = (file: string) => readFileSync(join(ws.dir, file), 'utf8');
  const readDefinition = () => JSON.parse(read(DEFINITION)) as Definition;
  const writeDefinition = (definition: Definition) =>
    writeFileSync(join(ws.dir, DEFINITION), `${JSON.stringify(definition, null, 2)}\n`);
  /** Flips one byte of a registry file, runs `check`, and puts the byte back. */
  const withOneByteEdited = (file: string, check: () => void) => {
    const original = readFileSync(join(ws.dir, file));
    const edited = Buffer.from(original);
    const at = edited.indexOf('describe it here');
    expect(at).toBeGreaterThan(0);
    edited[at] = 'D'.charCodeAt(0);
    writeFileSync(join(ws.dir, file), edited);
    try {
      check();
    } finally {
      writeFileSync(join(ws.dir, file), original);
    }
  };

  beforeAll(() => {
    const created = createWorkspace('nx-trust', packAgentdef());
    keysDir = join(created.home, 'agentdef-keys');
    ws = openWorkspace(created.dir, created.home, { AGENTDEF_KEYS_DIR: keysDir, AGENTDEF_KEYCHAIN: 'off' });
    // No key, receipt secret or git location of the outer process leaks in (the same object the runners use).
    for (const name of Object.keys(ws.env)) {
      if (
        (name.startsWith('AGENTDEF_') && name !== 'AGENTDEF_KEYS_DIR' && name !== 'AGENTDEF_KEYCHAIN') ||
        name.startsWith('GIT_')
      )
        delete ws.env[name];
    }
    writeFileSync(join(ws.dir, '.gitignore'), 'node_modules\n.nx\ndist\n');
    git(['init', '-q']);
    git(['config', 'user.name', 'Trust E2E']);
    git(['config', 'user.email', 'trust-e2e@example.invalid']);
    git(['config', 'commit.gpgsign', 'false']);
    ok(nx(['g', 'agentdef:init', '--no-interactive']));
  });

  it('1. generates an agent and its signing key: the public JWK and kid printed, listed, the private key kept 0600', () => {
    ok(nx(['g', 'agentdef:agent', AGENT, '--version=1.0.0', '--no-interactive']));
    const definition = readDefinition();
    expect(definition.identity.versionSemver).toBe('1.0.0');
    signingRef = definition.identity.signingKeyRef;
    expect(signingRef).toMatch(/^keyref:[a-z0-9][a-z0-9._-]{0,63}$/);

    // Before the key exists, a command that needs it says how to create it, and changes nothing.
    expect(ok(agentdef(['keys', 'list'])).stdout).toBe(
      'no keys: create one with `agentdef keys generate keyref:<name>`\n',
    );
    const before = read(DEFINITION);
    expect(refused(nx(['run', `${AGENT}:promote`, '--to=kym-registered']))).toContain(
      `create it with \`agentdef keys generate ${signingRef}\``,
    );
    expect(read(DEFINITION)).toBe(before);

    const generated = ok(agentdef(['keys', 'generate', signingRef])).stdout;
    const printedKid = /^kid: (\S+)$/m.exec(generated)?.[1];
    const printedJwk = /^public JWK: (\{.*\})$/m.exec(generated)?.[1];
    expect(printedKid).toBeDefined();
    const jwk = JSON.parse(printedJwk!) as Record<string, string>;
    expect(Object.keys(jwk).sort()).toEqual(['crv', 'kty', 'x']);
    expect(jwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519' });
    kid = printedKid!;
    expect(kid).toBe(thumbprint(jwk['x']!));

    const name = signingRef.slice('keyref:'.length);
    const privateFile = join(keysDir, `${name}.private.jwk.json`);
    expect(statSync(privateFile).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(privateFile, 'utf8'))).toMatchObject({
      kty: 'OKP',
      crv: 'Ed25519',
      x: jwk['x'],
      d: expect.any(String),
    });

    expect(ok(agentdef(['keys', 'list'])).stdout).toBe(`${signingRef}  kid ${kid}  private key: folder\n`);
    // A key is never overwritten.
    expect(refused(agentdef(['keys', 'generate', signingRef]))).toContain(name);
    expect(readFileSync(privateFile, 'utf8')).toContain(jwk['x']!);

    // The public key the verifiers below are given: exported, not copied from the keys folder.
    const exported = ok(agentdef(['keys', 'export-public', signingRef])).stdout;
    expect(JSON.parse(exported)).toEqual({ ...jwk, kid });
    mkdirSync(join(ws.dir, 'public-keys'));
    writeFileSync(join(ws.dir, 'public-keys', `${name}.public.jwk.json`), exported);
  });

  it('2. promotes one stage with a signed transition receipt that verifies; a gate or a jump of two stages refuses and changes nothing', () => {
    expect(readDefinition().lifecycleState).toBe('mcp-resident');
    // kym-registered's gate: the agent must be resolvable in KYM.
    expect(refused(agentdef(['promote', DEFINITION, '--to=kym-registered']))).toContain('/identity/kymRef');
    expect(existsSync(join(ws.dir, RECEIPTS))).toBe(false);
    expect(readDefinition().lifecycleState).toBe('mcp-resident');

    const definition = readDefinition();
    definition.identity.kymRef = `kym://agents/${AGENT}@1.0.0`;
    writeDefinition(definition);
    const before = read(DEFINITION);
    const promoted = ok(nx(['run', `${AGENT}:promote`, '--to=kym-registered'])).stdout;
    expect(promoted).toContain('promotion mcp-resident -> kym-registered');
    expect(read(DEFINITION)).toBe(
      before.replace('"lifecycleState": "mcp-resident"', '"lifecycleState": "kym-registered"'),
    );

    const receipts = read(RECEIPTS).trimEnd().split('\n');
    expect(receipts).toHaveLength(1);
    const receipt = JSON.parse(receipts[0]!) as Record<string, unknown>;
    expect(receipt).toMatchObject({
      receiptVersion: 'agentdef.lifecycle-transition/v1',
      agent: {
        id: definition.identity.id,
        slug: AGENT,
        versionSemver: '1.0.0',
        versionId: definition.identity.versionId,
      },
      transition: 'promotion',
      from: 'mcp-resident',
      to: 'kym-registered',
      signature: { alg: 'Ed25519', kid },
    });
    expect(ok(agentdef(['verify', RECEIPTS, '--keys', 'public-keys'])).stdout).toContain('1 of 1 lines verified');
    // Without --key or --keys, the local key store's public key (the one `keys generate` made) verifies it, named.
    expect(ok(agentdef(['verify', RECEIPTS])).stdout).toContain(
      `(signed by kid ${kid}: ${signingRef}, public key from the local key store)`,
    );
    // Where neither an option nor the key store has the public key, nothing verifies.
    const elsewhere = spawnSync(bin(), ['verify', RECEIPTS], {
      cwd: ws.dir,
      env: { ...ws.env, AGENTDEF_KEYS_DIR: join(ws.home, 'no-keys-here') },
      encoding: 'utf8',
    });
    outputs.push(elsewhere.stdout, elsewhere.stderr);
    expect(elsewhere.status).toBe(1);
    expect(elsewhere.stderr).toContain(`no public key for kid ${kid}`);

    // A jump past a stage that applies is refused, names it, and changes nothing.
    const definitionBefore = read(DEFINITION);
    const receiptsBefore = read(RECEIPTS);
    ok(agentdef(['promote', DEFINITION, '--to=mcp-resident']));
    const jump = refused(agentdef(['promote', DEFINITION, '--to=marketplace-published']));
    expect(jump).toContain('"mcp-resident" to "marketplace-published" skips "kym-registered"');
    ok(agentdef(['promote', DEFINITION, '--to=kym-registered']));
    expect(read(DEFINITION)).toBe(definitionBefore);
    // A leaf passes composed (it applies to compositions), but marketplace-published's own gates still hold it.
    const early = refused(agentdef(['promote', DEFINITION, '--to=marketplace-published']));
    expect(early).not.toContain('skips');
    expect(early).toContain('/identity/nandaFactsRef');
    expect(read(DEFINITION)).toBe(definitionBefore);
    expect(read(RECEIPTS).trimEnd().split('\n')).toHaveLength(receiptsBefore.trimEnd().split('\n').length + 2);
  });

  it('3. publishes the committed definition: snapshot, signed card, credential and KYM document verify; a one-byte edit of the snapshot fails', () => {
    // Uncommitted: refused, nothing written.
    expect(refused(agentdef(['publish', DEFINITION, CLI_WORKER_URL]))).toContain('uncommitted changes');
    expect(existsSync(join(ws.dir, 'registry'))).toBe(false);

    git(['add', '-A']);
    git(['commit', '-q', '-m', `${AGENT} 1.0.0 at kym-registered`]);
    const head = git(['rev-parse', 'HEAD']).trim();
    const published = ok(nx(['run', `${AGENT}:publish`, WORKER_URL])).stdout;
    expect(published).toContain(`published ${AGENT}@1.0.0`);
    expect(published).toContain(`from commit ${head}`);
    expect(published).toContain(`signed by kid ${kid}`);
    expect(readdirSync(join(ws.dir, REGISTRY)).sort()).toEqual([
      '1.0.0.agentfacts.vc.json',
      '1.0.0.card.json',
      '1.0.0.json',
      '1.0.0.kym.json',
      '1.0.0.oasf.json',
    ]);
    const snapshot = JSON.parse(read(`${REGISTRY}/1.0.0.json`)) as { metadata: { provenance: { commitSha?: string } } };
    expect(snapshot.metadata.provenance.commitSha).toBe(head);
    const index = JSON.parse(read('registry/agents/index.json')) as {
      snapshots: Array<{ slug: string; version: string; sha256: string }>;
    };
    expect(index.snapshots).toEqual([
      expect.objectContaining({
        slug: AGENT,
        version: '1.0.0',
        sha256: createHash('sha256')
          .update(readFileSync(join(ws.dir, `${REGISTRY}/1.0.0.json`)))
          .digest('hex'),
      }),
    ]);

    expect(ok(agentdef(['verify', `${REGISTRY}/1.0.0.card.json`, '--keys', 'public-keys'])).stdout).toContain(
      `verified agent-card (signed by kid ${kid})`,
    );
    expect(ok(agentdef(['verify', `${REGISTRY}/1.0.0.kym.json`, '--keys', 'public-keys'])).stdout).toContain(
      'verified agent-card',
    );
    expect(ok(agentdef(['verify', `${REGISTRY}/1.0.0.agentfacts.vc.json`])).stdout).toMatch(
      /verified credential \(signed by did:key:z6Mk\w+\)/,
    );
    expect(ok(agentdef(['registry', 'verify'])).stdout).toContain(
      `verified ${AGENT}@1.0.0\n1 of 1 published versions verified`,
    );

    // A copy of the card changed by one byte does not verify.
    const card = read(`${REGISTRY}/1.0.0.card.json`);
    mkdirSync(join(ws.dir, 'scratch'));
    writeFileSync(join(ws.dir, 'scratch', 'card.json'), card.replace('describe it here', 'Describe it here'));
    expect(refused(agentdef(['verify', 'scratch/card.json', '--keys', 'public-keys']))).toContain(
      'NOT verified agent-card',
    );

    // A consumer pinning the published version; in this workspace the pin resolves to the definition itself.
    ok(nx(['g', 'agentdef:agent', 'consumer', `--nodes=${AGENT}@1.0.0`, '--no-interactive']));
    expect(ok(nx(['run', 'consumer:plan'])).stdout).toMatch(
      new RegExp(`${AGENT}@1\\.0\\.0 .* workspace .* ${DEFINITION}`),
    );

    withOneByteEdited(`${REGISTRY}/1.0.0.json`, () => {
      const verify = refused(agentdef(['registry', 'verify']));
      expect(verify).toContain(`${REGISTRY}/1.0.0.json: changed after publishing`);
      expect(verify).toContain('0 of 1 published versions verified');
      // A plan through the registry (a kym:// reference) fails at the snapshot, naming both digests.
      const plan = refused(agentdef(['plan', `kym://agents/${AGENT}@1.0.0`]));
      expect(plan).toContain(`${REGISTRY}/1.0.0.json was changed after it was published`);
      expect(plan).toContain(index.snapshots[0]!.sha256);
    });
    ok(agentdef(['registry', 'verify']));
    ok(agentdef(['plan', `kym://agents/${AGENT}@1.0.0`]));

    // The published leaf reaches marketplace-published from kym-registered, passing composed: the
    // credential publish wrote verifies, and the signed receipt says which stage it passed and why.
    const committed = read(DEFINITION);
    const credential = JSON.parse(read(`${REGISTRY}/1.0.0.agentfacts.vc.json`)) as {
      credentialSubject: Record<string, unknown>;
    };
    const listed = readDefinition() as Definition & {
      identity: { nandaFactsRef?: string };
      metadata: { cardExports?: Record<string, unknown> };
    };
    listed.identity.nandaFactsRef = `https://nanda.example.com/agentfacts/${AGENT}/1.0.0`;
    listed.metadata.cardExports = { ...listed.metadata.cardExports, agentFacts: credential.credentialSubject };
    writeDefinition(listed);
    const marketplace = ok(agentdef(['promote', DEFINITION, '--to=marketplace-published'])).stdout;
    expect(marketplace).toContain('promotion kym-registered -> marketplace-published');
    expect(marketplace).toContain('passed "composed", which does not apply: composition.kind is "leaf"');
    const lastReceipt = JSON.parse(read(RECEIPTS).trimEnd().split('\n').pop()!) as Record<string, unknown>;
    expect(lastReceipt).toMatchObject({
      from: 'kym-registered',
      to: 'marketplace-published',
      skipped: [{ stage: 'composed' }],
      signature: { kid },
    });
    expect(ok(agentdef(['verify', RECEIPTS, '--keys', 'public-keys'])).stdout).toMatch(/(\d+) of \1 lines verified/);
    // Back down (recorded as a demotion), and the definition as committed for what follows.
    expect(ok(agentdef(['promote', DEFINITION, '--to=kym-registered'])).stdout).toContain(
      'demotion marketplace-published -> kym-registered',
    );
    writeFileSync(join(ws.dir, DEFINITION), committed);
  });

  it('4. a second version: a bump too small for its diff is refused by diff and publish; the right bump publishes', () => {
    git(['add', '-A']);
    git(['commit', '-q', '-m', 'published 1.0.0; a consumer pins it']);
    const published = `${REGISTRY}/1.0.0.json`;
    // A new skill: minor under the semver policy (docs/decisions/0001-semver-policy.md).
    const definition = readDefinition();
    definition.capabilityContract.skills.push({
      id: `${AGENT}.outline`,
      name: 'Outline',
      description: 'Outlines the text.',
      version: '1.0.1',
      tags: ['agent'],
    });
    definition.identity.versionSemver = '1.0.1';
    definition.identity.kymRef = `kym://agents/${AGENT}@1.0.1`;
    definition.identity.versionId = ulid();
    writeDefinition(definition);

    const diff = refused(agentdef(['diff', published, DEFINITION]));
    expect(diff).toContain('minor  added    /capabilityContract/skills/1: skill added');
    expect(diff).toContain('required bump: minor; actual bump: patch');

    git(['commit', '-q', '-a', '-m', `${AGENT} 1.0.1`]);
    const publish = refused(agentdef(['publish', DEFINITION, CLI_WORKER_URL]));
    expect(publish).toContain('the changes require a minor bump, but 1.0.0 → 1.0.1 is a patch bump');
    expect(publish).toContain('/capabilityContract/skills/1');
    expect(publish).toContain('nothing was published');
    expect(readdirSync(join(ws.dir, REGISTRY)).filter((f) => f.startsWith('1.0.1'))).toEqual([]);

    const bumped = readDefinition();
    bumped.identity.versionSemver = '1.1.0';
    bumped.identity.kymRef = `kym://agents/${AGENT}@1.1.0`;
    bumped.capabilityContract.skills[1]!['version'] = '1.1.0';
    writeDefinition(bumped);
    const enough = ok(agentdef(['diff', published, DEFINITION])).stdout;
    expect(enough).toContain('required bump: minor; actual bump: minor');
    git(['commit', '-q', '-a', '-m', `${AGENT} 1.1.0`]);
    expect(ok(agentdef(['publish', DEFINITION, CLI_WORKER_URL])).stdout).toContain(`published ${AGENT}@1.1.0`);
    // Publishing the same commit again is a no-op.
    expect(ok(nx(['run', `${AGENT}:publish`, WORKER_URL])).stdout).toContain('nothing to do');
    expect(ok(agentdef(['registry', 'verify'])).stdout).toContain('2 of 2 published versions verified');
    ok(agentdef(['verify', `${REGISTRY}/1.1.0.card.json`, '--keys', 'public-keys']));
    ok(agentdef(['verify', `${REGISTRY}/1.1.0.agentfacts.vc.json`]));

    // The workspace now holds 1.1.0, so the consumer's pin on 1.0.0 resolves through the registry,
    // where a one-byte edit of the snapshot fails its plan at the pin.
    expect(ok(nx(['run', 'consumer:plan'])).stdout).toMatch(
      new RegExp(`${AGENT}@1\\.0\\.0 .* registry .* ${published}`),
    );
    withOneByteEdited(published, () => {
      const plan = refused(agentdef(['plan', CONSUMER]));
      expect(plan).toContain(`${published} was changed after it was published`);
      expect(refused(agentdef(['registry', 'verify']))).toContain('1 of 2 published versions verified');
    });
    ok(agentdef(['plan', CONSUMER]));
  });

  it('5. imports legacy A2A cards (v1.0 and v0.3) into definitions that fail validation exactly at the listed TODO fields', () => {
    mkdirSync(join(ws.dir, 'cards'));
    const cards = [
      { card: 'spec-v1.0.1-sample-agent-card.json', directory: 'legacy/route-planner-v1', format: 'a2a-v1.0' },
      // the same agent's older card: its name gives the slug the first import took
      {
        card: 'spec-v0.3.0-sample-agent-card.json',
        directory: 'legacy/route-planner-v03',
        format: 'a2a-v0.3',
        slug: 'route-planner-v03',
      },
    ];
    for (const { card, directory, format, slug } of cards) {
      copyFileSync(join(EXAMPLE_CARDS, card), join(ws.dir, 'cards', card));
      const args = [
        'g',
        'agentdef:import-card',
        `--card=cards/${card}`,
        `--directory=${directory}`,
        '--no-interactive',
      ];
      if (slug !== undefined) {
        // without --slug the second import is refused: two projects would share the slug
        const taken = refused(nx(args));
        expect(taken).toContain('already names the project of');
        expect(taken).toContain('--slug');
        expect(existsSync(join(ws.dir, directory))).toBe(false);
        args.push(`--slug=${slug}`);
      }
      const generated = ok(nx(args)).stdout;
      const file = `${directory}/agent.json`;
      expect(generated).toContain(`CREATE ${file}`);
      const listed = listedTodoFields(generated);
      const definition = JSON.parse(read(file)) as Definition;
      expect(definition.metadata.notes).toMatchObject({ origin: 'legacy', legacyCard: { format } });
      const markers = todoPointers(definition).sort();
      expect(markers).toEqual(expect.arrayContaining(['/identity/signingKeyRef', '/modelSet', '/lifecycleState']));
      expect(listed.sort()).toEqual(markers);

      const validate = agentdef(['validate', file, '--format', 'json']);
      expect(validate.status, validate.stderr).toBe(1);
      const report = JSON.parse(validate.stdout) as {
        valid: boolean;
        diagnostics: Array<{ path: string; file: string; severity: string }>;
      };
      expect(report.valid).toBe(false);
      expect(report.diagnostics.every((d) => d.file === file)).toBe(true);
      const failing = [...new Set(report.diagnostics.filter((d) => d.severity === 'error').map((d) => d.path))].sort();
      expect(failing).toEqual(markers);
    }
  });

  it('never shows the private key: no output of any command above, and no file in the workspace, holds its d', () => {
    const name = signingRef.slice('keyref:'.length);
    const { d } = JSON.parse(readFileSync(join(keysDir, `${name}.private.jwk.json`), 'utf8')) as { d: string };
    expect(d).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(outputs.length).toBeGreaterThan(40);
    expect(outputs.filter((text) => text.includes(d))).toEqual([]);
    expect(
      workspaceFiles(ws.dir)
        .filter(([, text]) => text.includes(d))
        .map(([file]) => file),
    ).toEqual([]);
  });
});
