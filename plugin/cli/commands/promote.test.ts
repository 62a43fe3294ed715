/**
 * `agentdef promote`: the file changed in place (mode kept), the signed receipt appended next to it,
 * refusals leaving both untouched, `agentdef verify` checking the receipts file; exit codes 0 / 1 /
 * 2; the private key never in any output.
 */
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateKey, loadPrivateKey, type KeyStoreOptions } from '../../hosts/node/key-store';
import { generateReceiptKeyPair } from '../../runtime/receipts';
import type { AgentDefinition } from '../../schema/generated/agent-definition.types';
import { issueAgentFactsCredential } from '../../trust/agentfacts-credential';
import { publishedFileNames } from '../../registry/registry-layout';
import { writeSignedBenchEvents } from '../../eval/__test-support__/signed-bench-events';
import { runPromoteCommandWith } from './promote';
import { captureRun, copyExamplesWorkspace } from './test-support';
import { runVerifyCommand } from './verify';

const AT = '2026-03-01T12:30:00Z';
let root: string;
let keyOptions: KeyStoreOptions;
let secret: string;
let signer: { privateJwk: JsonWebKey; kid: string };
const outputs: string[] = [];

async function promote(argv: string[]) {
  const run = await captureRun((a, io) => runPromoteCommandWith(a, io, keyOptions), argv, root);
  outputs.push(run.stdout, run.stderr);
  return run;
}

beforeAll(async () => {
  root = copyExamplesWorkspace('agentdef-promote-');
  keyOptions = { env: { AGENTDEF_KEYS_DIR: join(root, 'keys'), AGENTDEF_KEYCHAIN: 'off' }, keychain: 'off' };
  const generated = await generateKey('keyref:release', keyOptions);
  if (!generated.ok) throw new Error(generated.message);
  const loaded = await loadPrivateKey('keyref:release', keyOptions);
  if (!loaded.ok) throw new Error(loaded.message);
  secret = loaded.privateJwk.d;
  signer = { privateJwk: loaded.privateJwk, kid: loaded.kid };
});

describe('agentdef promote', () => {
  const file = 'examples/edit-assistant/agent.json';
  const receipts = join('examples', 'edit-assistant', 'lifecycle.receipts.jsonl');

  it('demotes in place, keeps the mode, appends a signed receipt; refusals change nothing; verify checks the file', async () => {
    const path = join(root, file);
    chmodSync(path, 0o640);
    const before = readFileSync(path, 'utf8');
    const down = await promote([file, '--to', 'composed', '--at', AT, '--key', 'keyref:release']);
    expect(down).toMatchObject({ code: 0, stderr: '' });
    expect(down.stdout).toContain('demotion marketplace-published -> composed');
    expect(down.stdout).toContain(`receipt appended to ${receipts}`);
    expect(readFileSync(path, 'utf8')).toBe(
      before.replace('"lifecycleState": "marketplace-published"', '"lifecycleState": "composed"'),
    );
    expect(statSync(path).mode & 0o777).toBe(0o640);
    expect(readFileSync(join(root, receipts), 'utf8').trim().split('\n')).toHaveLength(1);

    const composed = readFileSync(path, 'utf8');
    const refused = await promote([file, '--to', 'marketplace-published', '--at', AT, '--key', 'keyref:release']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('requires the AgentFacts credential');
    expect(refused.stderr).toMatch(/agent\.json:\d+:\d+/);
    expect(readFileSync(path, 'utf8')).toBe(composed);
    expect(readFileSync(join(root, receipts), 'utf8').trim().split('\n')).toHaveLength(1);

    const { privateJwk } = await generateReceiptKeyPair();
    const issued = await issueAgentFactsCredential(JSON.parse(composed) as AgentDefinition, {
      target: 'local-mac',
      port: 4100,
      ttlSeconds: 3600,
      issuedAt: '2026-03-01T12:00:00Z',
      privateJwk,
    });
    if (!issued.ok) throw new Error('credential');
    writeFileSync(join(root, 'facts.vc.json'), JSON.stringify(issued.credential));
    const up = await promote([
      file,
      '--to=marketplace-published',
      '--at',
      '2026-03-01T12:40:00Z',
      '--key',
      'keyref:release',
      '--credential',
      'facts.vc.json',
      '--format',
      'json',
    ]);
    expect(up.code).toBe(0);
    expect(JSON.parse(up.stdout)).toMatchObject({
      from: 'composed',
      to: 'marketplace-published',
      transition: 'promotion',
      receipt: { signature: { alg: 'Ed25519' } },
    });
    expect(readFileSync(path, 'utf8')).toBe(before);

    const verified = await captureRun(runVerifyCommand, [receipts, '--keys', 'keys'], root);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain('2 of 2 lines verified');
    expect(verified.stdout).toContain('verified lifecycle-receipt');

    const lines = readFileSync(join(root, receipts), 'utf8').trim().split('\n');
    writeFileSync(
      join(root, 'tampered.jsonl'),
      `${lines[0]!.replace('"to":"composed"', '"to":"kym-registered"')}\n${lines[1]}\n`,
    );
    const tampered = await captureRun(runVerifyCommand, ['tampered.jsonl', '--keys', 'keys'], root);
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toContain('tampered.jsonl:1: NOT verified lifecycle-receipt');
    expect(tampered.stderr).toContain('tampered.jsonl:2: NOT verified lifecycle-receipt');
    expect(tampered.stderr).toContain('previous receipt ended at "kym-registered"');
  });

  it('without --credential, reads and verifies the credential publish wrote to the registry', async () => {
    const path = join(root, file);
    const down = await promote([file, '--to', 'composed', '--at', '2026-03-01T13:00:00Z', '--key', 'keyref:release']);
    expect(down.stderr).toBe('');
    expect(down.code).toBe(0);
    const composed = readFileSync(path, 'utf8');
    const definition = JSON.parse(composed) as AgentDefinition;
    const shown = `registry/agents/${definition.identity.slug}/${publishedFileNames(definition.identity.versionSemver).credential}`;

    const missing = await promote([
      file,
      '--to',
      'marketplace-published',
      '--at',
      '2026-03-01T13:10:00Z',
      '--key',
      'keyref:release',
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`no AgentFacts credential at ${shown}`);
    expect(missing.stderr).toContain('requires the AgentFacts credential');
    expect(readFileSync(path, 'utf8')).toBe(composed);

    const { privateJwk } = await generateReceiptKeyPair();
    const issued = await issueAgentFactsCredential(definition, {
      target: 'local-mac',
      port: 4100,
      ttlSeconds: 86400,
      issuedAt: '2026-03-01T12:00:00Z',
      privateJwk,
    });
    if (!issued.ok) throw new Error('credential');
    const published = JSON.stringify(issued.credential);
    mkdirSync(join(root, 'registry', 'agents', definition.identity.slug), { recursive: true });
    // A credential edited after publishing does not verify, so the promotion is refused.
    writeFileSync(join(root, shown), published.replace('"agent_name":', '"agent_name_":'));
    const edited = await promote([
      file,
      '--to',
      'marketplace-published',
      '--at',
      '2026-03-01T13:10:00Z',
      '--key',
      'keyref:release',
    ]);
    expect(edited.code).toBe(1);
    expect(edited.stderr).toContain('does not verify');
    expect(readFileSync(path, 'utf8')).toBe(composed);

    writeFileSync(join(root, shown), published);
    const up = await promote([
      file,
      '--to',
      'marketplace-published',
      '--at',
      '2026-03-01T13:20:00Z',
      '--key',
      'keyref:release',
      '--format',
      'json',
    ]);
    expect(up.code).toBe(0);
    expect(JSON.parse(up.stdout)).toMatchObject({
      from: 'composed',
      to: 'marketplace-published',
      transition: 'promotion',
    });
    expect(readFileSync(path, 'utf8')).toBe(
      composed.replace('"lifecycleState": "composed"', '"lifecycleState": "marketplace-published"'),
    );
  });

  it('--registry names another registry folder to look the credential up in', async () => {
    const path = join(root, file);
    expect(
      (await promote([file, '--to', 'composed', '--at', '2026-03-01T14:00:00Z', '--key', 'keyref:release'])).code,
    ).toBe(0);
    const definition = JSON.parse(readFileSync(path, 'utf8')) as AgentDefinition;
    const run = await promote([
      file,
      '--to',
      'marketplace-published',
      '--at',
      '2026-03-01T14:10:00Z',
      '--key',
      'keyref:release',
      '--registry',
      'elsewhere',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `no AgentFacts credential at elsewhere/${definition.identity.slug}/${publishedFileNames(definition.identity.versionSemver).credential}`,
    );
    cpSync(join(root, 'registry', 'agents'), join(root, 'elsewhere'), { recursive: true });
    const up = await promote([
      file,
      '--to',
      'marketplace-published',
      '--at',
      '2026-03-01T14:20:00Z',
      '--key',
      'keyref:release',
      '--registry',
      'elsewhere',
    ]);
    expect(up.code).toBe(0);
  });

  it('takes a leaf through every stage that applies to it: composed is passed (not applicable to a leaf) and said so; every signed receipt verifies', async () => {
    const leaf = 'examples/text-stats/agent.json';
    const leafReceipts = join('examples', 'text-stats', 'lifecycle.receipts.jsonl');
    const path = join(root, leaf);
    const edit = (change: (d: AgentDefinition) => void) => {
      const d = JSON.parse(readFileSync(path, 'utf8')) as AgentDefinition;
      change(d);
      writeFileSync(path, `${JSON.stringify(d, null, 2)}\n`);
    };
    const stageOf = () => (JSON.parse(readFileSync(path, 'utf8')) as AgentDefinition).lifecycleState;
    const up = async (to: string, extra: string[] = []) => {
      const run = await promote([leaf, '--to', to, '--at', AT, '--key', 'keyref:release', ...extra]);
      expect(run.stderr, to).toBe('');
      expect(run.code, to).toBe(0);
      expect(stageOf()).toBe(to);
      return run;
    };
    expect(stageOf()).toBe('tool-prototype');
    edit((d) => {
      d.telemetryContract.receiptSigner = 'keyref:release';
    });
    // tool-shipped needs signed benchmark events of exactly this definition: none, refused; signed, it moves.
    const unbenchmarked = await promote([leaf, '--to', 'tool-shipped', '--at', AT, '--key', 'keyref:release']);
    expect(unbenchmarked.code).toBe(1);
    expect(unbenchmarked.stderr).toContain('"tool-shipped" requires signed tool benchmark events of this definition');
    expect(stageOf()).toBe('tool-prototype');
    await writeSignedBenchEvents(root, leaf, signer);
    await up('tool-shipped');
    // The agentic gate flips: the tool gains a pinned model (the user's edit), then mcp-resident.
    edit((d) => {
      d.modelSet = [
        {
          role: 'primary',
          modelId: 'claude-haiku-4-5',
          modelVersion: '20251001',
          providerId: 'anthropic',
          samplingParams: { temperature: 0 },
          tier: 'small',
        },
      ];
      d.telemetryContract.agenticGate = 'agentic';
      d.telemetryContract.kymRegistrationRequired = true;
      d.runtimeRequirements.keyCustody = 'secrets-store';
      d.runtimeRequirements.bindings = [
        { kind: 'secret-ref', name: 'ANTHROPIC_API_KEY', ref: 'secrets-store://acme/anthropic' },
      ];
    });
    await up('mcp-resident');
    edit((d) => {
      d.identity.kymRef = `kym://agents/${d.identity.slug}@${d.identity.versionSemver}`;
    });
    await up('kym-registered');

    // composed does not apply to a leaf: asked for, it says so and names the stage to promote to.
    const composed = await promote([leaf, '--to', 'composed', '--at', AT, '--key', 'keyref:release']);
    expect(composed.code).toBe(1);
    expect(composed.stderr).toContain('"composed" does not apply to this agent: composition.kind is "leaf"');
    expect(composed.stderr).toContain('promote to "marketplace-published"');
    expect(stageOf()).toBe('kym-registered');

    const definition = JSON.parse(readFileSync(path, 'utf8')) as AgentDefinition;
    const { privateJwk } = await generateReceiptKeyPair();
    const issued = await issueAgentFactsCredential(definition, {
      target: 'cloudflare-dynamic-worker',
      workerUrl: 'https://text-stats.example.workers.dev',
      ttlSeconds: 86400,
      issuedAt: '2026-03-01T12:00:00Z',
      privateJwk,
    });
    if (!issued.ok) throw new Error('credential');
    writeFileSync(join(root, 'text-stats.vc.json'), JSON.stringify(issued.credential));
    edit((d) => {
      d.identity.nandaFactsRef = 'https://nanda.example.com/agentfacts/text-stats/1.0.0';
      d.metadata.cardExports = { agentFacts: issued.credential.credentialSubject as never };
    });
    const published = await up('marketplace-published', ['--credential', 'text-stats.vc.json']);
    expect(published.stdout).toContain('promotion kym-registered -> marketplace-published');
    expect(published.stdout).toContain('passed "composed", which does not apply: composition.kind is "leaf"');

    const lines = readFileSync(join(root, leafReceipts), 'utf8').trim().split('\n');
    expect(lines.map((line) => JSON.parse(line) as { from: string; to: string; skipped?: unknown })).toEqual([
      expect.objectContaining({ from: 'tool-prototype', to: 'tool-shipped', transition: 'promotion' }),
      expect.objectContaining({ from: 'tool-shipped', to: 'mcp-resident' }),
      expect.objectContaining({ from: 'mcp-resident', to: 'kym-registered' }),
      expect.objectContaining({
        from: 'kym-registered',
        to: 'marketplace-published',
        skipped: [{ stage: 'composed', reason: expect.stringContaining('not to a leaf') }],
      }),
    ]);
    expect(lines.slice(0, 3).every((line) => !line.includes('"skipped"'))).toBe(true);
    const verified = await captureRun(runVerifyCommand, [leafReceipts, '--keys', 'keys'], root);
    expect(verified.stderr).not.toContain('NOT verified');
    expect(verified.stdout).toContain('4 of 4 lines verified');
    expect(verified.code).toBe(0);

    // The skip is signed: dropping it (or claiming another stage was skipped) breaks the receipt.
    const last = lines[3]!;
    for (const forged of [
      last.replace(/,"skipped":\[[^\]]*\]/, ''),
      last.replace('"stage":"composed"', '"stage":"kym-registered"'),
    ]) {
      expect(forged).not.toBe(last);
      writeFileSync(join(root, 'forged.jsonl'), `${lines.slice(0, 3).join('\n')}\n${forged}\n`);
      const check = await captureRun(runVerifyCommand, ['forged.jsonl', '--keys', 'keys'], root);
      expect(check.code).toBe(1);
      expect(check.stderr).toContain('forged.jsonl:4: NOT verified lifecycle-receipt');
    }
  });

  it('a composition cannot pass composed: from kym-registered it goes to composed first', async () => {
    const dag = 'examples/edit-assistant/agent.json';
    const path = join(root, dag);
    expect(
      (await promote([dag, '--to', 'kym-registered', '--at', '2026-03-01T15:00:00Z', '--key', 'keyref:release'])).code,
    ).toBe(0);
    const before = readFileSync(path, 'utf8');
    const jump = await promote([
      dag,
      '--to',
      'marketplace-published',
      '--at',
      '2026-03-01T15:10:00Z',
      '--key',
      'keyref:release',
    ]);
    expect(jump.code).toBe(1);
    expect(jump.stderr).toContain('"kym-registered" to "marketplace-published" skips "composed"');
    expect(jump.stderr).toContain('promote to "composed" first');
    expect(readFileSync(path, 'utf8')).toBe(before);
  });

  it('refuses a jump with exit 1, naming the stage in between', async () => {
    const run = await promote([
      'examples/text-digest/agent.json',
      '--to',
      'kym-registered',
      '--at',
      AT,
      '--key',
      'keyref:release',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('skips "mcp-resident"');
    expect(existsSync(join(root, 'examples', 'text-digest', 'lifecycle.receipts.jsonl'))).toBe(false);
  });

  it('uses the definition signingKeyRef by default, and says how to create a missing key (exit 2)', async () => {
    const run = await promote(['examples/text-digest/agent.json', '--to', 'tool-prototype', '--at', AT]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no private key keyref:[a-z0-9.-]+ .*agentdef keys generate keyref:/);
  });

  it('usage errors: no --to, a bad --at, two files', async () => {
    expect((await promote(['examples/text-digest/agent.json'])).code).toBe(2);
    expect(
      (await promote(['examples/text-digest/agent.json', '--to', 'tool-prototype', '--at', 'yesterday'])).code,
    ).toBe(2);
    expect((await promote(['a.json', 'b.json', '--to', 'tool-prototype'])).code).toBe(2);
  });

  it('never prints the private key', () => {
    expect(outputs.join('\n')).not.toContain(secret);
  });
});
