/** Lifecycle promotion: one stage up with the gates checked, demotion recorded, the minimal text edit, the signed receipt. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jwkThumbprint } from '../runtime/jwk-thumbprint';
import { generateReceiptKeyPair } from '../runtime/receipts';
import type { AgentDefinition } from '../schema/generated/agent-definition.types';
import { issueAgentFactsCredential } from './agentfacts-credential';
import {
  LIFECYCLE_RECEIPT_VERSION,
  lifecycleChainFailures,
  signLifecycleReceipt,
  verifyLifecycleReceipt,
} from './lifecycle-receipt';
import { promoteDefinitionText, type PromotionRequest } from './promotion';

const ROOT = join(__dirname, '..', '..');
const example = (name: string, file = 'agent.json') => readFileSync(join(ROOT, 'examples', name, file), 'utf8');
const AT = '2026-03-01T12:30:00Z';

async function signer() {
  const { privateJwk, publicJwk } = await generateReceiptKeyPair();
  return { privateJwk, publicJwk, kid: await jwkThumbprint(publicJwk) };
}

async function promote(
  text: string,
  to: string,
  extra: Partial<PromotionRequest> = {},
  format: 'json' | 'yaml' = 'json',
) {
  const key = await signer();
  const result = await promoteDefinitionText({
    text,
    file: `examples/x/agent.${format}`,
    format,
    to,
    at: AT,
    signer: { privateJwk: key.privateJwk, kid: key.kid },
    ...extra,
  });
  return { result, key };
}

/** The lines of `after` that differ from `before` (same line count expected). */
function changedLines(before: string, after: string): string[] {
  const a = before.split('\n');
  const b = after.split('\n');
  expect(b.length).toBe(a.length);
  return b.filter((line, i) => line !== a[i]);
}

describe('promoteDefinitionText', () => {
  it('demotes any number of stages, records a demotion, and changes only the lifecycleState value', async () => {
    const text = example('edit-assistant');
    const { result, key } = await promote(text, 'composed');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(changedLines(text, result.text)).toEqual(['  "lifecycleState": "composed",']);
    expect(result.receipt).toMatchObject({
      receiptVersion: LIFECYCLE_RECEIPT_VERSION,
      agent: { slug: 'edit-assistant', versionSemver: '1.0.0' },
      transition: 'demotion',
      from: 'marketplace-published',
      to: 'composed',
      at: AT,
      definition: { file: 'agent.json' },
      signature: { alg: 'Ed25519', kid: key.kid },
    });
    expect(result.receipt.definition.digestBefore).toMatch(/^sha-256:[0-9a-f]{64}$/);
    expect(result.receipt.definition.digestAfter).not.toBe(result.receipt.definition.digestBefore);
    expect(JSON.stringify(result.receipt)).not.toContain(String(key.privateJwk.d));
    expect(
      await verifyLifecycleReceipt(result.receipt, (kid) => (kid === key.kid ? key.publicJwk : undefined)),
    ).toEqual({ verified: true, kid: key.kid });
  });

  it('refuses a jump and names the stage in between', async () => {
    const { result } = await promote(example('text-digest'), 'kym-registered');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({
      rule: 'lifecycle-promotion',
      path: '/lifecycleState',
      file: 'examples/x/agent.json',
    });
    expect(result.diagnostics[0]!.message).toContain('skips "mcp-resident"');
    expect(result.diagnostics[0]!.suggestion).toContain('--to mcp-resident');
  });

  it("checks the target stage's gates on the definition as it would be, located in the file", async () => {
    const { result } = await promote(example('text-digest'), 'mcp-resident');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const gate = result.diagnostics.find((d) => d.rule === 'lifecycle-gates');
    expect(gate).toMatchObject({ path: '/modelSet', severity: 'error' });
    expect(gate!.message).toMatch(/^as "mcp-resident": /);
    expect(gate!.line).toBeGreaterThan(1);
  });

  it('refuses the stage it is already at and a name that is not a stage', async () => {
    const same = await promote(example('text-digest'), 'tool-shipped');
    expect(same.result.ok === false && same.result.diagnostics[0]!.message).toContain('already at "tool-shipped"');
    const unknown = await promote(example('text-digest'), 'shipped');
    expect(unknown.result.ok === false && unknown.result.diagnostics[0]!.message).toContain(
      '"shipped" is not a lifecycle stage',
    );
  });

  it('keeps YAML as written: only the scalar changes', async () => {
    const text = example('pdf-extractor', 'agent.yaml');
    const { result } = await promote(text, 'tool-prototype', {}, 'yaml');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(changedLines(text, result.text)).toEqual(['lifecycleState: tool-prototype']);
    expect(result.transition).toBe('demotion');
    const quoted = text.replace('lifecycleState: tool-shipped', "lifecycleState: 'tool-shipped'");
    const again = await promote(quoted, 'tool-prototype', {}, 'yaml');
    expect(again.result.ok && changedLines(quoted, again.result.text)).toEqual(["lifecycleState: 'tool-prototype'"]);
  });

  describe('marketplace-published', () => {
    const composed = example('edit-assistant').replace(
      '"lifecycleState": "marketplace-published"',
      '"lifecycleState": "composed"',
    );
    const definition = JSON.parse(composed) as AgentDefinition;

    async function credentialFor(agent: AgentDefinition, issuedAt = '2026-03-01T12:00:00Z') {
      const { privateJwk } = await generateReceiptKeyPair();
      const issued = await issueAgentFactsCredential(agent, {
        target: 'local-mac',
        port: 4100,
        ttlSeconds: 3600,
        issuedAt,
        privateJwk,
      });
      if (!issued.ok) throw new Error(JSON.stringify(issued.failures));
      return issued.credential;
    }

    it('requires the AgentFacts credential', async () => {
      const { result } = await promote(composed, 'marketplace-published');
      expect(result.ok === false && result.diagnostics[0]!.message).toContain('requires the AgentFacts credential');
    });

    it('promotes with a credential that verifies and is about this agent version', async () => {
      const { result } = await promote(composed, 'marketplace-published', {
        credential: await credentialFor(definition),
      });
      expect(result.ok).toBe(true);
      expect(result.ok && result.receipt).toMatchObject({
        transition: 'promotion',
        from: 'composed',
        to: 'marketplace-published',
      });
    });

    it('refuses a credential that does not verify, is expired, or is about another agent', async () => {
      const tampered = await credentialFor(definition);
      (tampered['credentialSubject'] as Record<string, unknown>)['label'] = 'Someone else';
      const changed = await promote(composed, 'marketplace-published', { credential: tampered });
      expect(changed.result.ok === false && changed.result.diagnostics.map((d) => d.message).join('\n')).toContain(
        'does not verify',
      );

      const expired = await promote(composed, 'marketplace-published', {
        credential: await credentialFor(definition, '2026-01-01T00:00:00Z'),
      });
      expect(expired.result.ok === false && expired.result.diagnostics.map((d) => d.message).join('\n')).toContain(
        '/validUntil',
      );

      const other = JSON.parse(example('text-digest')) as AgentDefinition;
      const foreign = await promote(composed, 'marketplace-published', { credential: await credentialFor(other) });
      expect(foreign.result.ok).toBe(false);
      expect(foreign.result.ok === false && foreign.result.diagnostics.map((d) => d.message).join('\n')).toContain(
        'not about this agent version',
      );
    });
  });
});

describe('lifecycle receipts', () => {
  it('fail verification after any change, with another key, or with no key for the kid', async () => {
    const { result, key } = await promote(example('edit-assistant'), 'kym-registered');
    if (!result.ok) throw new Error('expected a demotion');
    const keyFor = (kid: string) => (kid === key.kid ? key.publicJwk : undefined);
    const changed = { ...result.receipt, at: '2026-03-01T12:30:01Z' };
    expect(await verifyLifecycleReceipt(changed, keyFor)).toMatchObject({
      verified: false,
      failures: [{ pointer: '/signature/value' }],
    });
    const other = await signer();
    expect(await verifyLifecycleReceipt(result.receipt, () => other.publicJwk)).toMatchObject({ verified: false });
    expect(await verifyLifecycleReceipt(result.receipt, () => undefined)).toMatchObject({
      verified: false,
      failures: [{ pointer: '/signature/kid' }],
    });
    const skipped = { ...result.receipt, from: 'tool-shipped', to: 'composed', transition: 'promotion' };
    const check = await verifyLifecycleReceipt(skipped, keyFor);
    expect(check.verified === false && check.failures.map((f) => f.message).join('\n')).toContain(
      'skips "mcp-resident"',
    );
  });

  it('a receipt that passes stages, even signed by the right key, lists exactly those it passed, and only composed can be passed', async () => {
    const key = await signer();
    const keyFor = (kid: string) => (kid === key.kid ? key.publicJwk : undefined);
    const base = {
      receiptVersion: LIFECYCLE_RECEIPT_VERSION,
      agent: {
        id: '01KQB8J5284X2B3T395NAM3B7D',
        slug: 'x',
        versionSemver: '1.0.0',
        versionId: '01KQXTGGAHPQXPXEVVWRWT04ZM',
      },
      transition: 'promotion' as const,
      definition: {
        file: 'agent.json',
        digestBefore: `sha-256:${'a'.repeat(64)}`,
        digestAfter: `sha-256:${'b'.repeat(64)}`,
      },
      at: AT,
    };
    const composed = { stage: 'composed' as const, reason: 'composition.kind is "leaf"' };
    const check = async (fields: Record<string, unknown>) => {
      const receipt = await signLifecycleReceipt(
        { ...base, ...fields } as Parameters<typeof signLifecycleReceipt>[0],
        key.privateJwk,
        key.kid,
      );
      const result = await verifyLifecycleReceipt(receipt, keyFor);
      return result.verified ? 'verified' : result.failures.map((f) => `${f.pointer}: ${f.message}`).join('\n');
    };
    expect(await check({ from: 'kym-registered', to: 'marketplace-published', skipped: [composed] })).toBe('verified');
    expect(await check({ from: 'kym-registered', to: 'marketplace-published' })).toContain(
      '/skipped: "kym-registered" to "marketplace-published" passes "composed": a receipt that passes stages lists them in skipped',
    );
    expect(
      await check({
        from: 'mcp-resident',
        to: 'marketplace-published',
        skipped: [{ stage: 'kym-registered', reason: 'x' }, composed],
      }),
    ).toContain('skips "kym-registered"');
    expect(
      await check({
        from: 'kym-registered',
        to: 'marketplace-published',
        skipped: [{ stage: 'composed', reason: '' }],
      }),
    ).toContain('/skipped/0: must be exactly');
    expect(
      await check({ from: 'kym-registered', to: 'marketplace-published', skipped: [composed, composed] }),
    ).toContain('skipped must list exactly those stages');
    expect(
      await check({ from: 'kym-registered', to: 'marketplace-published', skipped: [{ ...composed, extra: true }] }),
    ).toContain('/skipped/0');
    expect(await check({ from: 'mcp-resident', to: 'kym-registered', skipped: [composed] })).toContain(
      '/skipped: skipped lists the stages a promotion passed; this transition passes none',
    );
    expect(
      await check({ from: 'marketplace-published', to: 'kym-registered', transition: 'demotion', skipped: [composed] }),
    ).toContain('/skipped');
  });

  it('promotes a leaf from kym-registered to marketplace-published, passing composed with the reason in the signed receipt; a DAG cannot pass it', async () => {
    const leaf = JSON.parse(example('edit-assistant')) as AgentDefinition;
    const { privateJwk } = await generateReceiptKeyPair();
    const asLeaf = (stage: string) =>
      JSON.stringify({ ...leaf, lifecycleState: stage, composition: { kind: 'leaf' } }, null, 2);
    const issued = await issueAgentFactsCredential({ ...leaf, composition: { kind: 'leaf' } } as AgentDefinition, {
      target: 'local-mac',
      port: 4100,
      ttlSeconds: 3600,
      issuedAt: '2026-03-01T12:00:00Z',
      privateJwk,
    });
    if (!issued.ok) throw new Error('credential');
    const { result, key } = await promote(asLeaf('kym-registered'), 'marketplace-published', {
      credential: issued.credential,
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.skipped).toEqual([
      {
        stage: 'composed',
        reason:
          'composition.kind is "leaf": "composed" applies to compositions (a DAG of pinned agents), not to a leaf',
      },
    ]);
    expect(result.receipt).toMatchObject({
      from: 'kym-registered',
      to: 'marketplace-published',
      transition: 'promotion',
      skipped: result.skipped,
    });
    expect(await verifyLifecycleReceipt(result.receipt, () => key.publicJwk)).toEqual({ verified: true, kid: key.kid });
    // The same jump for the DAG the example is: refused before any gate, naming composed.
    const dag = await promote(
      JSON.stringify({ ...leaf, lifecycleState: 'kym-registered' }, null, 2),
      'marketplace-published',
      { credential: issued.credential },
    );
    expect(dag.result.ok).toBe(false);
    if (!dag.result.ok) expect(dag.result.diagnostics.map((d) => d.message).join('\n')).toContain('skips "composed"');
    // A leaf asked to go to composed is told it does not apply, and where to go instead.
    const toComposed = await promote(asLeaf('kym-registered'), 'composed');
    expect(toComposed.result.ok).toBe(false);
    if (!toComposed.result.ok)
      expect(toComposed.result.diagnostics[0]).toMatchObject({
        message: expect.stringContaining('"composed" does not apply to this agent'),
        suggestion: expect.stringContaining('promote to "marketplace-published"'),
      });
  });

  it('chain: each transition starts at the stage the previous one ended at, never earlier', () => {
    const a = { from: 'tool-shipped', to: 'mcp-resident', at: '2026-03-01T10:00:00Z' };
    const b = { from: 'mcp-resident', to: 'kym-registered', at: '2026-03-01T11:00:00Z' };
    expect(lifecycleChainFailures([a, b])).toEqual([]);
    const gap = { from: 'composed', to: 'marketplace-published', at: '2026-03-01T09:00:00Z' };
    expect(lifecycleChainFailures([a, b, gap]).map((f) => [f.index, f.failure.pointer])).toEqual([
      [2, '/from'],
      [2, '/at'],
    ]);
    // compared as instants: an offset counts, and a year Date.parse cannot hold is still earlier
    const offset = { from: 'kym-registered', to: 'composed', at: '2026-03-01T11:30:00+01:00' };
    expect(lifecycleChainFailures([b, offset]).map((f) => [f.index, f.failure.pointer])).toEqual([[1, '/at']]);
    const far = { from: 'mcp-resident', to: 'kym-registered', at: '99999-01-01T00:00:00Z' };
    expect(
      lifecycleChainFailures([a, far, { ...offset, at: '2026-03-01T12:00:00Z' }]).map((f) => [
        f.index,
        f.failure.pointer,
      ]),
    ).toEqual([[2, '/at']]);
  });

  it("a receipt's at is a date-time with its time zone, never a form only Date.parse reads", async () => {
    const { result, key } = await promote(example('edit-assistant'), 'kym-registered');
    if (!result.ok) throw new Error('expected a demotion');
    for (const at of ['Sun, 01 Mar 2026 12:30:00 GMT', '2026-03-01T12:30:00', '2026-03-01']) {
      const check = await verifyLifecycleReceipt({ ...result.receipt, at }, (kid) =>
        kid === key.kid ? key.publicJwk : undefined,
      );
      if (check.verified) throw new Error(`a receipt at ${at} verified`);
      expect(
        check.failures.map((f) => f.pointer),
        at,
      ).toContain('/at');
    }
  });
});
