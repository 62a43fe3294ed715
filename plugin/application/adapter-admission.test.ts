/**
 * Start-up admission of host bindings against pack component claims: exactly one adapter and one
 * owner resolver per well-formed component, no binding for an unknown component or a built-in,
 * exact descriptors, own functions, frozen wrappers that keep the host's `this`, and messages that
 * quote nothing secret-looking.
 */
import { describe, expect, it } from 'vitest';
import {
  adapterFor,
  ownerResolverFor,
  summariseComponent,
  wordCountComponent,
} from './__test-support__/component-packs';
import { admitHostBindings, BINDING_RULE, quoteHostText } from './adapter-admission';
import type { AdapterCall, OwnerEvidence } from './component-adapter';
import { identityKey } from './component-adapter';
import type { PackComponentClaim } from './pack-document-admission';

type Any = any;

const summarise = summariseComponent();
const wordCount = wordCountComponent();
const CLAIMS: PackComponentClaim[] = [
  { id: summarise.id, revision: summarise.revision, pointer: '/packs/0/components/0', definition: summarise },
  { id: wordCount.id, revision: wordCount.revision, pointer: '/packs/0/components/1', definition: wordCount },
];
const BUILTINS = new Set([identityKey({ id: 'agentdef.input', revision: '1.0.0' })]);

const bindings = () => ({
  adapters: [adapterFor(summarise), adapterFor(wordCount)] as unknown[],
  resolvers: [ownerResolverFor(summarise), ownerResolverFor(wordCount)] as unknown[],
});

describe('admitHostBindings', () => {
  it('admits one adapter and one resolver per component, as frozen wrappers in identity order', async () => {
    const { adapters, resolvers } = bindings();
    const result = admitHostBindings([...adapters].reverse(), resolvers, CLAIMS, BUILTINS);
    expect(result.findings).toEqual([]);
    expect(result.adapters.map((a) => a.component.id)).toEqual([summarise.id, wordCount.id]);
    expect(result.adapters[0]).not.toBe(adapters[0]);
    expect(Object.isFrozen(result.adapters[0])).toBe(true);
    expect(Object.isFrozen(adapters[0])).toBe(false);
    const outcome = await result.adapters[1]?.execute({
      config: {},
      inputs: { text: 'one two three' },
    } as unknown as AdapterCall);
    expect(outcome).toEqual({ status: 'completed', outputs: { count: { words: 3 } } });
    const evidence: OwnerEvidence | undefined = await result.ownerResolvers[0]?.resolve();
    expect(evidence).toEqual({ ok: true, evidence: { owner: 'acme.summariser', profileDigest: '1'.repeat(64) } });
  });

  it('does not ask for bindings of a claimed component that is not well-formed', () => {
    const claims: PackComponentClaim[] = [
      CLAIMS[0] as PackComponentClaim,
      { id: wordCount.id, revision: wordCount.revision, pointer: '/packs/0/components/1' },
    ];
    const result = admitHostBindings([adapterFor(summarise)], [ownerResolverFor(summarise)], claims, BUILTINS);
    expect(result.findings).toEqual([]);
    // …and a binding for it is neither unknown nor compared against a broken definition.
    const both = admitHostBindings(bindings().adapters, bindings().resolvers, claims, BUILTINS);
    expect(both.findings).toEqual([]);
    expect(both.adapters.map((a) => a.component.id)).toEqual([summarise.id]);
  });

  it('reports missing bindings at the list, ambiguous ones at the repeat', () => {
    const missing = admitHostBindings([adapterFor(summarise)], [ownerResolverFor(wordCount)], CLAIMS, BUILTINS);
    expect(missing.findings.map((f) => [f.path, f.rule])).toEqual([
      ['/ownerResolvers', BINDING_RULE],
      ['/adapters', BINDING_RULE],
    ]);
    const { adapters, resolvers } = bindings();
    const twice = admitHostBindings(
      [...adapters, adapterFor(wordCount)],
      [...resolvers, ownerResolverFor(summarise)],
      CLAIMS,
      BUILTINS,
    );
    expect(twice.findings.map((f) => f.path)).toEqual(['/adapters/2', '/ownerResolvers/2']);
    expect(twice.findings[0]?.message).toMatch(/already has the adapter at \/adapters\/1/);
  });

  it('refuses bindings for built-ins and unknown components at their `component`', () => {
    const { adapters, resolvers } = bindings();
    const builtin = { ...adapterFor(summarise), component: { id: 'agentdef.input', revision: '1.0.0' } };
    const unknown = { ...ownerResolverFor(summarise), component: { id: summarise.id, revision: '9.9.9' } };
    const result = admitHostBindings([...adapters, builtin], [...resolvers, unknown], CLAIMS, BUILTINS);
    expect(result.findings.map((f) => [f.path, f.message.match(/built-in|no pack defines/)?.[0]])).toEqual([
      ['/adapters/2/component', 'built-in'],
      ['/ownerResolvers/2/component', 'no pack defines'],
    ]);
  });

  it('compares every descriptor member exactly, modes as a set', () => {
    const variants: [string, unknown, boolean][] = [
      ['interface', summarise.interface, true],
      ['interface', `${summarise.interface} `, false],
      ['capability', 'ACME.TEXT.SUMMARISE', false],
      ['sideEffect', 'external', false],
      ['replay', 'fenced-once', false],
      ['owner', 'acme.counter', false],
      ['modes', ['live', 'dry-run'], true],
      ['modes', ['dry-run'], false],
      ['modes', ['dry-run', 'live', 'staging'], false],
      ['modes', 'dry-run', false],
      ['modes', [], false],
    ];
    for (const [key, value, ok] of variants) {
      const { adapters, resolvers } = bindings();
      (adapters[0] as Any)[key] = value;
      const result = admitHostBindings(adapters, resolvers, CLAIMS, BUILTINS);
      expect(
        result.findings.map((f) => f.path),
        `${key}=${JSON.stringify(value)}`,
      ).toEqual(ok ? [] : [`/adapters/0/${key}`]);
    }
  });

  it('needs own functions, and keeps the function captured at admission', async () => {
    const { adapters, resolvers } = bindings();
    const host = {
      ...adapterFor(summarise),
      label: 'mine',
      execute(this: { label: string }) {
        return Promise.resolve({ status: 'failed' as const, code: 'x', message: this.label });
      },
    };
    const result = admitHostBindings([host, adapters[1]], resolvers, CLAIMS, BUILTINS);
    host.label = 'changed';
    host.execute = () => Promise.reject(new Error('not this one'));
    expect(await result.adapters[0]?.execute({} as AdapterCall)).toEqual({
      status: 'failed',
      code: 'x',
      message: 'changed',
    });

    const noResolve = { component: { id: wordCount.id, revision: wordCount.revision }, owner: 'acme.counter' };
    const refused = admitHostBindings(adapters, [resolvers[0], noResolve], CLAIMS, BUILTINS);
    expect(refused.findings).toEqual([
      expect.objectContaining({ path: '/ownerResolvers/1/resolve', message: expect.stringMatching(/is missing/) }),
    ]);
  });

  it('reports a list that is not an array once, and still the missing bindings of the other list', () => {
    const { resolvers } = bindings();
    const result = admitHostBindings('adapters', resolvers, CLAIMS, BUILTINS);
    expect(result.findings).toEqual([
      expect.objectContaining({ path: '/adapters', message: '`adapters` must be an array, not a string' }),
    ]);
  });
});

describe('quoteHostText', () => {
  it('quotes short printable text, and nothing else', () => {
    expect(quoteHostText('acme.summariser')).toBe('"acme.summariser"');
    expect(quoteHostText(42)).toBe('a value that is not a string');
    expect(quoteHostText('')).toBe('an empty string');
    expect(quoteHostText('x'.repeat(161))).toBe('a value that is not shown');
    expect(quoteHostText('line\nbreak')).toBe('a value that is not shown');
    expect(quoteHostText('\u202eevil')).toBe('a value that is not shown');
    expect(quoteHostText(`sk-${'A1b2C3d4'.repeat(6)}`)).toBe('a value that is not shown');
    expect(quoteHostText('9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08')).toBe(
      'a value that is not shown',
    );
  });
});
