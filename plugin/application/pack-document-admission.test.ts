/**
 * Admission of one pack document: the admitted shape (normalised components with their places),
 * claims for bindings even when the pack is refused, limits checked before the schema, control
 * fields exempt only at the schema's declared places, the dialect before any Ajv compile, and the
 * identity grammars and quoting rules the registry relies on.
 */
import { describe, expect, it } from 'vitest';
import {
  sealedPack,
  SUMMARISE_ID,
  summariseComponent,
  syntheticPack,
  validPack,
  WORD_COUNT_ID,
  wordCountComponent,
} from './__test-support__/component-packs';
import {
  admitPackDocument,
  COMPONENT_PACK_SCHEMA_VERSION,
  isQuotableIdentity,
  isWellFormedIdentity,
} from './pack-document-admission';

type Any = any;

describe('admitPackDocument', () => {
  it('admits the valid pack: identity, source digest, normalised components at their places', () => {
    const pack = validPack();
    const admission = admitPackDocument(pack, '/packs/3');
    expect(admission.findings).toEqual([]);
    expect(admission.identity).toEqual({ id: 'acme.text-tools', revision: '1.2.0' });
    expect(admission.componentCount).toBe(2);
    expect(admission.pack?.sourceDigest).toBe(pack.source.sha256);
    expect(admission.pack?.components.map((c) => [c.definition.id, c.pointer])).toEqual([
      [SUMMARISE_ID, '/packs/3/components/0'],
      [WORD_COUNT_ID, '/packs/3/components/1'],
    ]);
    const definition = admission.pack?.components[0]?.definition as Any;
    expect(definition).toEqual(summariseComponent());
    expect(Object.getPrototypeOf(definition)).toBe(Object.prototype);
    expect(Object.keys(definition)).toEqual([...Object.keys(definition)].sort());
    expect(pack.schemaVersion).toBe(COMPONENT_PACK_SCHEMA_VERSION);
  });

  it('still reports the claimed components of a refused pack, with definitions only for well-formed ones', () => {
    const pack: Any = validPack();
    pack.components[1].sideEffect = 'network';
    const admission = admitPackDocument(pack, '/packs/0');
    expect(admission.pack).toBeUndefined();
    expect(admission.claims.map((claim) => [claim.id, claim.definition !== undefined])).toEqual([
      [SUMMARISE_ID, true],
      [WORD_COUNT_ID, false],
    ]);
  });

  it('checks the limits first: an oversized pack gets one finding and no further inspection', () => {
    const big: Any = syntheticPack('acme.big', 17);
    big.extra = 'x';
    big.source.uri = 'workspace://host';
    const admission = admitPackDocument(big, '/packs/1');
    expect(admission.findings).toHaveLength(1);
    expect(admission.findings[0]).toMatchObject({ rule: 'component-pack-limit', path: '/packs/1/components' });
    expect(admission.componentCount).toBe(17);
    expect(admission.claims.every((claim) => claim.definition === undefined)).toBe(true);
  });

  it('exempts the declared `source.uri`, but not a port or config-free member named like it', () => {
    expect(admitPackDocument(validPack(), '').findings).toEqual([]);
    const pack: Any = validPack();
    pack.components[0].ports.outputs.uri = { kind: 'text', description: 'x' };
    const findings = admitPackDocument(sealedPack(pack), '').findings;
    expect(findings).toEqual([
      expect.objectContaining({ rule: 'control-field', path: '/components/0/ports/outputs/uri', at: 'key' }),
    ]);
  });

  it('leaves configSchema to the dialect: a high-risk property name there is a dialect finding, not a control field', () => {
    const pack: Any = validPack();
    pack.components[1].configSchema.properties.password = { type: 'string' };
    const findings = admitPackDocument(sealedPack(pack), '/packs/0').findings;
    expect(findings.map((f) => f.rule)).toEqual(['pack-schema-dialect']);
    expect(findings[0]?.path).toBe('/packs/0/components/1/configSchema/properties/password');
  });

  it('never reaches Ajv with a schema outside the dialect, and compiles one inside it', () => {
    const unknownKeyword: Any = validPack();
    unknownKeyword.components[0].configSchema.properties.style = { enum: ['a'], 'x-ajv-would-throw': true };
    const findings = admitPackDocument(sealedPack(unknownKeyword), '').findings;
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      rule: 'pack-schema-dialect',
      path: '/components/0/configSchema/properties/style/x-ajv-would-throw',
    });
    expect(findings[0]?.message).not.toMatch(/Ajv/);
  });

  it('reports the right digest for a stale pack, only once the schema passes', () => {
    const pack: Any = validPack();
    pack.components.reverse(); // the order is not part of the digest
    expect(admitPackDocument(pack, '').findings).toEqual([]);
    pack.components[0].title = 'Renamed';
    const stale = admitPackDocument(pack, '').findings;
    expect(stale).toEqual([expect.objectContaining({ rule: 'component-pack-source', path: '/source/sha256' })]);
    pack.extra = 1;
    expect(admitPackDocument(pack, '').findings.map((f) => f.rule)).toEqual(['component-pack-schema']);
  });

  it('reports wordCount as a claim too, for the registry identity checks', () => {
    expect(admitPackDocument(validPack(), '').claims.map((claim) => claim.id)).toEqual([
      SUMMARISE_ID,
      wordCountComponent().id,
    ]);
  });
});

describe('identity grammars', () => {
  it('well-formed: a component id and an exact semver', () => {
    expect(isWellFormedIdentity('acme.text_tools-2', '1.0.0-rc.1+build.5')).toBe(true);
    for (const [id, revision] of [
      ['Acme', '1.0.0'],
      ['acme..x', '1.0.0'],
      ['acme', '^1.0.0'],
      ['acme', 'latest'],
      ['a'.repeat(129), '1.0.0'],
    ] as const)
      expect(isWellFormedIdentity(id, revision), `${id}@${revision}`).toBe(false);
  });

  it('quotable: well-formed and not credential-shaped', () => {
    expect(isQuotableIdentity('acme.text', '1.0.0')).toBe(true);
    expect(isQuotableIdentity(`ghp_${'a1b2c3d4e5'.repeat(4)}`, '1.0.0')).toBe(false);
    expect(isQuotableIdentity('9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', '1.0.0')).toBe(false);
  });
});
