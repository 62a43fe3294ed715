/**
 * `createApplicationComponentPackRegistry`, end to end: a valid pack is admitted (deep-frozen,
 * order-independent, bindings wrapped without touching the host's objects), and every admission
 * rule of the seed and the brief refuses its input with a located finding: the closed envelope,
 * every invalid source-URI form, the source digest, each limit just at and just over, one revision
 * per pack id, the component shape, the reserved and colliding ids, control fields and secrets
 * outside `configSchema`, the configuration dialect before Ajv, and every host-binding rule. Then
 * the composite digests through catalog.ts, and hostile options that must never make it throw.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../definition/diagnostic';
import {
  adapterFor,
  optionsFor,
  ownerResolverFor,
  SUMMARISE_ID,
  sealedPack,
  summariseComponent,
  syntheticComponent,
  syntheticPack,
  TEXT_PACK_ID,
  validPack,
  validRegistryOptions,
  WORD_COUNT_ID,
  wordCountComponent,
} from './__test-support__/component-packs';
import { builtinComponents } from './builtin-components';
import { catalogFromDefinitions } from './catalog';
import type { AdapterCall } from './component-adapter';
import {
  COMPONENT_PACK_SCHEMA_VERSION,
  type ComponentPackRegistry,
  type ComponentPackRegistryResult,
  createApplicationComponentPackRegistry,
  PACK_LIMITS,
} from './component-pack-registry';
import { digestComponentPackSource } from './source-digest';
import { stableApplicationJson } from './stable-json';

type Any = any;

function admitted(options: unknown): ComponentPackRegistry {
  const result = createApplicationComponentPackRegistry(options as never);
  if (!result.ok) throw new Error(`expected admission, got ${JSON.stringify(result.findings, null, 2)}`);
  return result.registry;
}

function refused(options: unknown): Finding[] {
  const result = createApplicationComponentPackRegistry(options as never);
  expect(result.ok, 'expected a refusal').toBe(false);
  return result.ok ? [] : result.findings;
}

/** The findings at exactly `path`. */
const at = (findings: readonly Finding[], path: string): Finding[] =>
  findings.filter((finding) => finding.path === path);

/** Refused with (at least) one finding at `path` whose message matches `message`. */
function expectRefusedAt(options: unknown, path: string, message: RegExp, rule?: string): Finding[] {
  const findings = refused(options);
  const here = at(findings, path);
  expect(here.length, `findings at ${path}: ${JSON.stringify(findings, null, 2)}`).toBeGreaterThan(0);
  expect(
    here.some((finding) => message.test(finding.message)),
    JSON.stringify(here, null, 2),
  ).toBe(true);
  if (rule !== undefined) expect(here.map((finding) => finding.rule)).toContain(rule);
  return findings;
}

/** Valid options with the one pack edited (and re-sealed unless `seal` is false). */
function withPack(edit: (pack: Any) => void, seal = true) {
  const options = validRegistryOptions();
  const pack = structuredClone(options.packs[0]) as Any;
  edit(pack);
  options.packs[0] = seal ? sealedPack(pack) : pack;
  return options;
}

describe('createApplicationComponentPackRegistry: a valid pack', () => {
  it('is admitted with its source digest, its components as plain JSON, and one adapter and resolver each', () => {
    const registry = admitted(validRegistryOptions());
    const pack = validPack();
    expect(registry.packs).toEqual([{ id: TEXT_PACK_ID, revision: '1.2.0', sourceDigest: pack.source.sha256 }]);
    expect(registry.components).toEqual([summariseComponent(), wordCountComponent()]);
    expect(registry.adapters.map((adapter) => adapter.component)).toEqual([
      { id: SUMMARISE_ID, revision: '1.0.0' },
      { id: WORD_COUNT_ID, revision: '1.0.0' },
    ]);
    expect(registry.ownerResolvers.map((resolver) => [resolver.component.id, resolver.owner])).toEqual([
      [SUMMARISE_ID, 'acme.summariser'],
      [WORD_COUNT_ID, 'acme.counter'],
    ]);
    expect(COMPONENT_PACK_SCHEMA_VERSION).toBe('agentdef.component-pack/v1');
  });

  it('is deep-frozen, while the host objects it was given stay untouched', () => {
    const options = validRegistryOptions();
    const registry = admitted(options);
    for (const value of [
      registry,
      registry.packs,
      registry.packs[0],
      registry.components,
      registry.components[0],
      registry.components[0]?.configSchema,
      registry.components[0]?.ports.inputs,
      registry.adapters,
      registry.adapters[0],
      registry.adapters[0]?.modes,
      registry.ownerResolvers[0],
    ]) {
      expect(Object.isFrozen(value)).toBe(true);
    }
    expect(Object.isFrozen(options.adapters[0])).toBe(false);
    expect(Object.isFrozen(options.packs[0])).toBe(false);
    expect(() => {
      (registry.components as Any).push({});
    }).toThrow();
  });

  it('calls the function captured at admission, with the host object as `this`, and turns a throw into a rejection', async () => {
    const calls: unknown[] = [];
    const host = {
      ...adapterFor(summariseComponent()),
      prefix: 'host:',
      execute(this: { prefix: string }, call: AdapterCall) {
        calls.push(this.prefix);
        return Promise.resolve({
          status: 'completed' as const,
          outputs: { summary: `${this.prefix}${String(call.inputs['text'])}` },
        });
      },
    };
    const options = { ...validRegistryOptions(), adapters: [host, adapterFor(wordCountComponent())] };
    const registry = admitted(options);
    host.execute = () => {
      throw new Error('replaced after admission');
    };
    const adapter = registry.adapters[0];
    const outcome = await adapter?.execute({ inputs: { text: 'hello' } } as unknown as AdapterCall);
    expect(outcome).toEqual({ status: 'completed', outputs: { summary: 'host:hello' } });
    expect(calls).toEqual(['host:']);

    const throwing = {
      ...adapterFor(summariseComponent()),
      execute: () => {
        throw new Error('boom');
      },
    };
    const second = admitted({ ...validRegistryOptions(), adapters: [throwing, adapterFor(wordCountComponent())] });
    await expect(second.adapters[0]?.execute({} as AdapterCall)).rejects.toThrow('boom');
    expect(await second.ownerResolvers[0]?.resolve()).toEqual({
      ok: true,
      evidence: { owner: 'acme.summariser', profileDigest: '1'.repeat(64) },
    });
  });

  it('does not depend on the order of packs, components, adapters or resolvers', () => {
    const a = syntheticPack('acme.alpha', 2);
    const b = syntheticPack('acme.beta', 3);
    const forward = optionsFor([a, b]);
    const reordered = {
      packs: [sealedPack({ ...b, components: [...b.components].reverse() }), a],
      adapters: [...forward.adapters].reverse(),
      ownerResolvers: [...forward.ownerResolvers].reverse(),
    };
    const x = admitted(forward);
    const y = admitted(reordered);
    expect(y.packs).toEqual(x.packs);
    expect(y.components).toEqual(x.components);
    expect(y.adapters.map((adapter) => adapter.component)).toEqual(x.adapters.map((adapter) => adapter.component));
    expect(x.packs.map((pack) => pack.id)).toEqual(['acme.alpha', 'acme.beta']);
  });

  it('admits no packs at all: an empty registry', () => {
    expect(admitted({ packs: [], adapters: [], ownerResolvers: [] })).toEqual({
      packs: [],
      components: [],
      adapters: [],
      ownerResolvers: [],
    });
  });

  it('combines with the built-ins into a catalog', () => {
    const registry = admitted(validRegistryOptions());
    const catalog = catalogFromDefinitions([...builtinComponents(), ...registry.components], registry.packs);
    expect(catalog.ok).toBe(true);
    if (catalog.ok) expect(catalog.catalog.components.map((c) => c.definition.id)).toContain(SUMMARISE_ID);
  });
});

describe('the pack envelope', () => {
  it('must be plain JSON data', () => {
    const getter = Object.defineProperty(validPack(), 'id', { get: () => TEXT_PACK_ID, enumerable: true });
    expectRefusedAt(
      { ...validRegistryOptions(), packs: [getter] },
      '/packs/0/id',
      /not plain JSON data: an accessor/,
      'component-pack',
    );
    const cyclic: Any = validPack();
    cyclic.components[0].ports.self = cyclic.components[0];
    expectRefusedAt({ ...validRegistryOptions(), packs: [cyclic] }, '/packs/0/components/0/ports/self', /circular/);
    class Pack {}
    expectRefusedAt(
      { ...validRegistryOptions(), packs: [Object.assign(new Pack(), validPack())] },
      '/packs/0',
      /custom prototype/,
    );
    expectRefusedAt({ ...validRegistryOptions(), packs: [new Proxy(validPack(), {})] }, '/packs/0', /Proxy/);
    expectRefusedAt({ ...validRegistryOptions(), packs: [[validPack()]] }, '/packs/0', /must be a JSON object/);
    expectRefusedAt(
      { ...validRegistryOptions(), packs: ['{"schemaVersion":"agentdef.component-pack/v1"}'] },
      '/packs/0',
      /must be a JSON object/,
    );
  });

  it('has exactly schemaVersion, id, revision, source and components: nothing else, at any level', () => {
    expectRefusedAt(
      withPack((p) => {
        p.notes = 'x';
      }),
      '/packs/0/notes',
      /unknown field `notes`/,
      'component-pack-schema',
    );
    expectRefusedAt(
      withPack((p) => {
        p.source.signedBy = 'x';
      }),
      '/packs/0/source/signedBy',
      /unknown field/,
    );
    expectRefusedAt(
      withPack((p) => {
        p.components[1].extra = true;
      }),
      '/packs/0/components/1/extra',
      /unknown field/,
    );
    expectRefusedAt(
      withPack((p) => {
        p.components[0].owner.team = 'x';
      }),
      '/packs/0/components/0/owner/team',
      /unknown field/,
    );
    expectRefusedAt(
      withPack((p) => {
        p.components[0].ports.inputs.text.default = 'x';
      }),
      '/packs/0/components/0/ports/inputs/text/default',
      /unknown field/,
    );
    for (const key of ['schemaVersion', 'id', 'revision', 'source', 'components']) {
      expectRefusedAt(
        withPack((p) => {
          delete p[key];
        }, key !== 'components'),
        '/packs/0',
        new RegExp(`missing the required field \`${key}\``),
      );
    }
    expectRefusedAt(
      withPack((p) => {
        p.schemaVersion = 'agentdef.component-pack/v2';
      }),
      '/packs/0/schemaVersion',
      /must be "agentdef.component-pack\/v1"/,
    );
    expectRefusedAt(
      withPack((p) => {
        p.components = [];
      }),
      '/packs/0/components',
      /fewer than 1/,
    );
  });

  it('names the pack by an id and one exact revision: no ranges, no latest', () => {
    for (const revision of ['^1.2.0', '~1.2', '1.2', 'latest', '1.2.x', '>=1.0.0', '01.2.0', '']) {
      expectRefusedAt(
        withPack((p) => {
          p.revision = revision;
        }),
        '/packs/0/revision',
        revision === '' ? /./ : /exact semantic version/,
      );
    }
    for (const id of ['Acme.Text', 'acme..text', 'acme.text.', '-acme', 'acme/text', '']) {
      expectRefusedAt(
        withPack((p) => {
          p.id = id;
        }),
        '/packs/0/id',
        /./,
      );
    }
  });
});

describe('source.uri', () => {
  const refusedUri = (uri: string, message: RegExp) =>
    expectRefusedAt(
      withPack((p) => {
        p.source.uri = uri;
      }),
      '/packs/0/source/uri',
      message,
      'component-pack-source',
    );

  it('accepts the three inert forms', () => {
    for (const uri of [
      'workspace:/packs/acme/pack.json',
      'kgdoc:packs/acme-text',
      'urn:agentdef:packs:acme.text-tools',
    ]) {
      admitted(
        withPack((p) => {
          p.source.uri = uri;
        }),
      );
    }
  });

  it('refuses every invalid form the seed lists', () => {
    refusedUri('workspace://host/packs/acme', /authority/);
    refusedUri('kgdoc:https://example.org/pack', /colon|nested/);
    refusedUri('urn:agentdef:http:evil', /network scheme \(http\)/);
    for (const scheme of ['http', 'https', 'file', 'ftp', 'ws', 'wss'])
      refusedUri(`urn:agentdef:${scheme}:evil`, new RegExp(`network scheme \\(${scheme}\\)`));
    refusedUri('workspace:/packs/../secrets', /dot segment/);
    refusedUri('workspace:/packs/./acme', /dot segment/);
    refusedUri('kgdoc:packs/~acme', /tilde/);
    refusedUri('workspace:/Packs/acme', /uppercase/);
    refusedUri('kgdoc:packs/acme--text', /consecutive punctuation/);
    refusedUri('kgdoc:packs/acme._text', /consecutive punctuation/);
    refusedUri('kgdoc:packs/acme-', /trailing punctuation/);
    refusedUri('workspace:/packs/acme/', /empty segment/);
    refusedUri('urn:agentdef:packs:acme.', /trailing punctuation/);
    refusedUri('workspace:/kgdoc:packs', /colon/);
    refusedUri('urn:agentdef:packs/https:evil', /slash in a URN/);
    refusedUri('workspace:/packs/https://evil', /colon/);
    refusedUri('https://example.org/pack.json', /scheme other than/);
    refusedUri('workspace:packs/acme', /without its leading slash/);
  });

  it('never quotes an excerpt of a credential-shaped URI', () => {
    const token = `ghp_${'Q1w2E3r4T5'.repeat(4)}`;
    const findings = refusedUri(`kgdoc:${token}`, /looks like it holds a credential/);
    expect(JSON.stringify(findings)).not.toContain('ghp_');
  });
});

describe('source.sha256', () => {
  it('is 64 lowercase hex characters', () => {
    const pack = validPack();
    expectRefusedAt(
      withPack((p) => {
        p.source.sha256 = pack.source.sha256.toUpperCase();
      }, false),
      '/packs/0/source/sha256',
      /64 lowercase hexadecimal/,
    );
    expectRefusedAt(
      withPack((p) => {
        p.source.sha256 = 'abc';
      }, false),
      '/packs/0/source/sha256',
      /64 lowercase hexadecimal/,
    );
  });

  it('equals digestComponentPackSource: a stale or placeholder digest is told the value to write', () => {
    const stale = withPack((p) => {
      p.components[0].title = 'Extractive summary (edited)';
    }, false);
    const right = digestComponentPackSource(stale.packs[0]);
    expect(right.ok).toBe(true);
    if (!right.ok) return;
    const findings = expectRefusedAt(
      stale,
      '/packs/0/source/sha256',
      new RegExp(`stale or edited.*${right.sha256}`),
      'component-pack-source',
    );
    expect(at(findings, '/packs/0/source/sha256')[0]?.suggestion).toContain(right.sha256);
    expectRefusedAt(
      withPack((p) => {
        p.source.sha256 = '0'.repeat(64);
      }, false),
      '/packs/0/source/sha256',
      /still the placeholder/,
    );
  });
});

describe('limits', () => {
  it(`admits ${PACK_LIMITS.maxPacks} packs and refuses ${PACK_LIMITS.maxPacks + 1}`, () => {
    const packs = Array.from({ length: PACK_LIMITS.maxPacks + 1 }, (_, i) => syntheticPack(`acme.p${i}`, 1));
    expect(admitted(optionsFor(packs.slice(0, PACK_LIMITS.maxPacks))).packs).toHaveLength(16);
    const findings = expectRefusedAt(
      optionsFor(packs),
      '/packs',
      /17 component packs.*at most 16/,
      'component-pack-limit',
    );
    expect(findings).toHaveLength(1);
  });

  it(`admits ${PACK_LIMITS.maxComponentsPerPack} components in a pack and refuses ${PACK_LIMITS.maxComponentsPerPack + 1}`, () => {
    expect(admitted(optionsFor([syntheticPack('acme.big', 16)])).components).toHaveLength(16);
    expectRefusedAt(
      optionsFor([syntheticPack('acme.big', 17)]),
      '/packs/0/components',
      /17 components.*at most 16/,
      'component-pack-limit',
    );
  });

  it(`admits ${PACK_LIMITS.maxComponentsTotal} components in all (5 built-ins + 95) and refuses ${PACK_LIMITS.maxComponentsTotal + 1}`, () => {
    expect(PACK_LIMITS.maxComponentsTotal).toBe(100);
    const sizes = (total: number) =>
      Array.from({ length: Math.ceil(total / 16) }, (_, i) => Math.min(16, total - i * 16));
    const packsOf = (total: number) => sizes(total).map((size, i) => syntheticPack(`acme.t${i}`, size));
    expect(admitted(optionsFor(packsOf(95))).components).toHaveLength(95);
    expectRefusedAt(
      optionsFor(packsOf(96)),
      '/packs',
      /101 components \(5 built-in and 96 from packs\).*at most 100/,
      'component-pack-limit',
    );
  });

  it(`admits a pack of exactly ${PACK_LIMITS.maxPackBytes} bytes of canonical JSON and refuses one byte more`, () => {
    const bytesOf = (pack: unknown) => {
      const text = stableApplicationJson(pack);
      return text.ok ? Buffer.byteLength(text.text, 'utf8') : Number.NaN;
    };
    const base = bytesOf(syntheticPack('acme.large', 1, { padding: 0 }));
    const exact = syntheticPack('acme.large', 1, { padding: PACK_LIMITS.maxPackBytes - base });
    expect(bytesOf(exact)).toBe(262_144);
    expect(admitted(optionsFor([exact])).packs).toHaveLength(1);
    const over = syntheticPack('acme.large', 1, { padding: PACK_LIMITS.maxPackBytes - base + 1 });
    expect(bytesOf(over)).toBe(262_145);
    const findings = expectRefusedAt(
      optionsFor([over]),
      '/packs/0',
      /262145 bytes.*at most 262144/,
      'component-pack-limit',
    );
    expect(findings).toHaveLength(1);
  });

  it('counts multi-byte characters as UTF-8 bytes', () => {
    const base = syntheticPack('acme.large', 1, { padding: 0 });
    const text = stableApplicationJson(base);
    if (!text.ok) throw new Error('fixture');
    const room = PACK_LIMITS.maxPackBytes - Buffer.byteLength(text.text, 'utf8');
    // 'é' is 2 bytes: half the room in code units fills it exactly; one more code unit is over.
    const fill = (n: number) => {
      const pack = structuredClone(base) as Any;
      pack.components[0].configSchema.description = 'é'.repeat(n);
      return sealedPack(pack);
    };
    expect(admitted(optionsFor([fill(Math.floor(room / 2))])).packs).toHaveLength(1);
    expectRefusedAt(optionsFor([fill(Math.floor(room / 2) + 1)]), '/packs/0', /bytes; a pack is at most 262144/);
  });
});

describe('one revision per pack id', () => {
  it('refuses the same pack twice', () => {
    const options = validRegistryOptions();
    expectRefusedAt(
      { ...options, packs: [validPack(), validPack()] },
      '/packs/1/id',
      /`acme.text-tools` at the same revision is already given at \/packs\/0/,
      'component-pack-identity',
    );
  });

  it('refuses two revisions of one pack id, even with different components', () => {
    const a = syntheticPack('acme.tools', 1, { revision: '1.0.0' });
    const b = sealedPack({
      ...syntheticPack('acme.tools', 1, { revision: '1.1.0' }),
      components: [syntheticComponent('acme.other.c0')],
    });
    expectRefusedAt(
      optionsFor([a, b]),
      '/packs/1/id',
      /pack `acme.tools` is already selected at revision 1.0.0 \(\/packs\/0\).*exactly one revision/,
      'component-pack-identity',
    );
  });
});

describe('component definitions', () => {
  const edit = (fn: (component: Any) => void, index = 0) =>
    withPack((p) => {
      fn(p.components[index]);
    });

  it('need every member of a built-in definition', () => {
    for (const key of [
      'id',
      'revision',
      'title',
      'description',
      'interface',
      'capability',
      'sideEffect',
      'replay',
      'modes',
      'owner',
      'ports',
      'configSchema',
    ]) {
      expectRefusedAt(
        edit((c) => {
          delete c[key];
        }),
        '/packs/0/components/0',
        new RegExp(`missing the required field \`${key}\``),
      );
    }
  });

  it('have an exact revision and well-formed ids', () => {
    expectRefusedAt(
      edit((c) => {
        c.revision = '1.x';
      }),
      '/packs/0/components/0/revision',
      /exact semantic version/,
    );
    expectRefusedAt(
      edit((c) => {
        c.id = 'Acme.Summarise';
      }),
      '/packs/0/components/0/id',
      /must be an id/,
    );
    expectRefusedAt(
      edit((c) => {
        c.interface = 'acme.component.summarise';
      }),
      '/packs/0/components/0/interface',
      /versioned interface id/,
    );
    expectRefusedAt(
      edit((c) => {
        c.capability = 'Acme Summarise';
      }),
      '/packs/0/components/0/capability',
      /must be an id/,
    );
  });

  it('have a known side effect and replay class', () => {
    expectRefusedAt(
      edit((c) => {
        c.sideEffect = 'network';
      }),
      '/packs/0/components/0/sideEffect',
      /must be one of "none", "external"/,
    );
    expectRefusedAt(
      edit((c) => {
        c.replay = 'retry';
      }),
      '/packs/0/components/0/replay',
      /must be one of "deterministic", "fenced-once"/,
    );
  });

  it('have a non-empty set of modes from dry-run and live', () => {
    expectRefusedAt(
      edit((c) => {
        c.modes = [];
      }),
      '/packs/0/components/0/modes',
      /fewer than 1/,
    );
    expectRefusedAt(
      edit((c) => {
        c.modes = ['live', 'live'];
      }),
      '/packs/0/components/0/modes',
      /duplicate/,
    );
    expectRefusedAt(
      edit((c) => {
        c.modes = ['production'];
      }),
      '/packs/0/components/0/modes/0',
      /must be one of "dry-run", "live"/,
    );
  });

  it('have a host-injected owner', () => {
    expectRefusedAt(
      edit((c) => {
        c.owner.selection = 'builtin';
      }),
      '/packs/0/components/0/owner/selection',
      /must be "host-injected"/,
    );
    expectRefusedAt(
      edit((c) => {
        c.owner.name = 'Acme Owner';
      }),
      '/packs/0/components/0/owner/name',
      /must be an id/,
    );
  });

  it('have typed ports with port names and known kinds', () => {
    expectRefusedAt(
      edit((c) => {
        c.ports.inputs.text.kind = 'binary';
      }),
      '/packs/0/components/0/ports/inputs/text/kind',
      /must be one of "json", "text", "artifact", "agent-plan"/,
    );
    expectRefusedAt(
      edit((c) => {
        c.ports.outputs['Summary Text'] = { kind: 'text', description: 'x' };
      }),
      '/packs/0/components/0/ports/outputs/Summary Text',
      /is not a port name/,
    );
    expectRefusedAt(
      edit((c) => {
        c.ports.inputs = {};
      }),
      '/packs/0/components/0/ports/inputs',
      /fewer than 1/,
    );
    expectRefusedAt(
      edit((c) => {
        c.ports.inputs.text.required = 'yes';
      }),
      '/packs/0/components/0/ports/inputs/text/required',
      /must be boolean/,
    );
  });

  it('have configuration schemas in the closed dialect, checked before Ajv compiles anything', () => {
    const cases: [(schema: Any) => void, string, RegExp][] = [
      [(s) => (s.properties.maxWords = { $ref: '#/$defs/x' }), '/properties/maxWords/$ref', /references/],
      [
        (s) => (s.properties.style = { type: 'string', pattern: '^(a+)+$' }),
        '/properties/style/pattern',
        /regular expressions/,
      ],
      [(s) => (s.properties.style = { type: 'string', format: 'uri' }), '/properties/style/format', /format/],
      [(s) => (s.properties.style = { type: 'string', 'x-future': true }), '/properties/style/x-future', /./],
      [(s) => delete s.additionalProperties, '/additionalProperties', /additionalProperties: false/],
      [(s) => (s.properties.apiToken = { type: 'string' }), '/properties/apiToken', /./],
      [(s) => (s.properties.command = { type: 'string' }), '/properties/command', /./],
      [(s) => (s.properties.style = { enum: [{ a: 1 }] }), '/properties/style/enum/0', /./],
    ];
    for (const [change, path, message] of cases) {
      const findings = expectRefusedAt(
        edit((c) => change(c.configSchema)),
        `/packs/0/components/0/configSchema${path}`,
        message,
        'pack-schema-dialect',
      );
      // The dialect, not Ajv, refused it.
      expect(findings.some((finding) => /Ajv refused/.test(finding.message))).toBe(false);
    }
    expectRefusedAt(
      edit((c) => {
        c.configSchema = [];
      }),
      '/packs/0/components/0/configSchema',
      /must be object/,
    );
  });
});

describe('component ids', () => {
  it('never collide with a built-in, and the agentdef. prefix is reserved', () => {
    const builtin = sealedPack({
      ...syntheticPack('acme.tools', 1),
      components: [syntheticComponent('agentdef.input')],
    });
    expectRefusedAt(
      optionsFor([builtin]),
      '/packs/0/components/0/id',
      /id of a built-in component/,
      'component-pack-identity',
    );
    const sameIdOtherRevision = sealedPack({
      ...syntheticPack('acme.tools', 1),
      components: [syntheticComponent('agentdef.input', '2.0.0')],
    });
    expectRefusedAt(optionsFor([sameIdOtherRevision]), '/packs/0/components/0/id', /id of a built-in component/);
    const reserved = sealedPack({
      ...syntheticPack('acme.tools', 1),
      components: [syntheticComponent('agentdef.summarise')],
    });
    expectRefusedAt(
      optionsFor([reserved]),
      '/packs/0/components/0/id',
      /`agentdef\.` prefix, which is reserved/,
      'component-pack-identity',
    );
  });

  it('are unique across packs and within a pack, whatever the revisions', () => {
    const a = sealedPack({ ...syntheticPack('acme.one', 1), components: [syntheticComponent('acme.shared')] });
    const b = sealedPack({ ...syntheticPack('acme.two', 1), components: [syntheticComponent('acme.shared', '2.0.0')] });
    expectRefusedAt(
      optionsFor([a, b]),
      '/packs/1/components/0/id',
      /already defined at \/packs\/0\/components\/0 \(revision 1.0.0\)/,
      'component-pack-identity',
    );
    const twice = sealedPack({
      ...syntheticPack('acme.one', 1),
      components: [syntheticComponent('acme.same'), syntheticComponent('acme.same', '1.1.0')],
    });
    expectRefusedAt(optionsFor([twice]), '/packs/0/components/1/id', /already defined at \/packs\/0\/components\/0/);
  });
});

describe('control fields and secrets outside configSchema', () => {
  it('refuses a control field anywhere in the envelope or a component, reported once', () => {
    const cases: [(p: Any) => void, string][] = [
      [(p) => (p.endpoint = 'x'), '/packs/0/endpoint'],
      [(p) => (p.source.credentials = 'x'), '/packs/0/source/credentials'],
      [(p) => (p.components[0].command = 'run'), '/packs/0/components/0/command'],
      [(p) => (p.components[1].ports.inputs.text.headers = {}), '/packs/0/components/1/ports/inputs/text/headers'],
      [
        (p) => (p.components[0].ports.inputs.uri = { kind: 'text', required: true, description: 'x' }),
        '/packs/0/components/0/ports/inputs/uri',
      ],
      [(p) => (p.components[0].owner.callback = 'x'), '/packs/0/components/0/owner/callback'],
    ];
    for (const [change, path] of cases) {
      const findings = expectRefusedAt(withPack(change), path, /is a control field/, 'control-field');
      expect(at(findings, path), 'one finding, not a schema one too').toHaveLength(1);
      expect(at(findings, path)[0]?.code).toBeUndefined();
    }
  });

  it('exempts the schema own members at their declared places only', () => {
    // `source.uri` is the pack's own member: admitted (the valid pack has one).
    admitted(validRegistryOptions());
  });

  it('refuses a literal secret anywhere, without quoting it', () => {
    const token = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
    const findings = expectRefusedAt(
      withPack((p) => {
        p.components[0].description = `Calls the API with ${token}`;
      }),
      '/packs/0/components/0/description',
      /secrets must never appear/,
      'secrets',
    );
    expect(JSON.stringify(findings)).not.toContain(token);
    const inConfig = refused(
      withPack((p) => {
        p.components[0].configSchema.properties.style.default = token;
      }),
    );
    expect(inConfig.some((finding) => finding.rule === 'secrets')).toBe(true);
    expect(JSON.stringify(inConfig)).not.toContain(token);
  });
});

describe('host bindings', () => {
  const bind = (edit: (options: ReturnType<typeof validRegistryOptions>) => void) => {
    const options = validRegistryOptions();
    edit(options);
    return options;
  };

  it('need exactly one adapter and one owner resolver per pack component', () => {
    expectRefusedAt(
      bind((o) => o.adapters.pop()),
      '/adapters',
      /`acme.text.word-count@1.0.0` \(\/packs\/0\/components\/1\) has no adapter/,
      'component-pack-binding',
    );
    expectRefusedAt(
      bind((o) => o.ownerResolvers.shift()),
      '/ownerResolvers',
      /`acme.text.summarise@1.0.0` \(\/packs\/0\/components\/0\) has no owner resolver/,
    );
    expectRefusedAt(
      bind((o) => o.adapters.push(adapterFor(summariseComponent()))),
      '/adapters/2',
      /already has the adapter at \/adapters\/0.*ambiguous/,
    );
    expectRefusedAt(
      bind((o) => o.ownerResolvers.push(ownerResolverFor(wordCountComponent()))),
      '/ownerResolvers/2',
      /already has the owner resolver at \/ownerResolvers\/1/,
    );
  });

  it('refuse a binding for a component no pack defines, or for a built-in', () => {
    expectRefusedAt(
      bind((o) => o.adapters.push(adapterFor(syntheticComponent('acme.unknown')))),
      '/adapters/2/component',
      /no pack defines `acme.unknown@1.0.0`/,
    );
    expectRefusedAt(
      bind((o) => o.adapters.push(adapterFor({ ...summariseComponent(), revision: '1.0.1' }))),
      '/adapters/2/component',
      /no pack defines `acme.text.summarise@1.0.1`/,
    );
    const input = builtinComponents().find((c) => c.id === 'agentdef.input');
    if (input === undefined) throw new Error('fixture');
    expectRefusedAt(
      bind((o) => o.adapters.push(adapterFor(input))),
      '/adapters/2/component',
      /is a built-in component/,
    );
    expectRefusedAt(
      bind((o) => o.ownerResolvers.push(ownerResolverFor(input))),
      '/ownerResolvers/2/component',
      /is a built-in component/,
    );
  });

  it('refuse each descriptor mismatch at its member', () => {
    const cases: [string, unknown, RegExp][] = [
      [
        'interface',
        'acme.component.summarise/v2',
        /declares `interface` "acme.component.summarise\/v2", but component `acme.text.summarise@1.0.0`.*defines "acme.component.summarise\/v1"/,
      ],
      ['capability', 'acme.text.other', /`capability`/],
      ['sideEffect', 'external', /`sideEffect` "external".*defines "none"/],
      ['replay', 'fenced-once', /`replay`/],
      ['owner', 'acme.someone-else', /`owner`/],
      ['modes', ['dry-run'], /not exactly the set/],
      ['modes', ['dry-run', 'live', 'live'], /not exactly the set/],
      ['modes', ['live', 'dry-run'], /^$/],
    ];
    for (const [key, value, message] of cases) {
      const options = bind((o) => {
        (o.adapters[0] as Any)[key] = value;
      });
      if (message.source === '^$') {
        admitted(options); // the same set in another order is the same set
        continue;
      }
      expectRefusedAt(options, `/adapters/0/${key}`, message, 'component-pack-binding');
    }
  });

  it("refuse a resolver whose owner is not the component's owner", () => {
    expectRefusedAt(
      bind((o) => {
        (o.ownerResolvers[1] as Any).owner = 'acme.summariser';
      }),
      '/ownerResolvers/1/owner',
      /names the owner "acme.summariser", but component `acme.text.word-count@1.0.0`.*owned by "acme.counter"/,
    );
  });

  it('need own functions for execute and resolve, and checkConfig when present', () => {
    expectRefusedAt(
      bind((o) => {
        (o.adapters[0] as Any).execute = 'run';
      }),
      '/adapters/0/execute',
      /must be a function, not string/,
    );
    class Adapter {
      execute() {
        return Promise.resolve({ status: 'failed', code: 'x', message: 'x' });
      }
    }
    const { execute: _own, ...descriptor } = adapterFor(summariseComponent());
    expectRefusedAt(
      bind((o) => {
        o.adapters[0] = Object.assign(new Adapter(), descriptor) as Any;
      }),
      '/adapters/0/execute',
      /is missing: it must be the object's own function/,
    );
    expectRefusedAt(
      bind((o) => {
        (o.adapters[0] as Any).checkConfig = {};
      }),
      '/adapters/0/checkConfig',
      /must be a function/,
    );
    expectRefusedAt(
      bind((o) => {
        (o.ownerResolvers[0] as Any).resolve = undefined;
      }),
      '/ownerResolvers/0/resolve',
      /must be a function|missing/,
    );
    const withCheck = bind((o) => {
      (o.adapters[0] as Any).checkConfig = () => ({ findings: [] });
    });
    expect(admitted(withCheck).adapters[0]?.checkConfig).toBeTypeOf('function');
  });

  it('read host objects as own data only: getters are never called, Proxies never touched', () => {
    let getterRuns = 0;
    const getterAdapter = Object.defineProperty({ ...adapterFor(summariseComponent()) }, 'capability', {
      get: () => {
        getterRuns++;
        return 'acme.text.summarise';
      },
      enumerable: true,
    });
    expectRefusedAt(
      bind((o) => {
        o.adapters[0] = getterAdapter;
      }),
      '/adapters/0/capability',
      /accessor.*never called/,
    );
    expect(getterRuns).toBe(0);
    let trapRuns = 0;
    const proxy = new Proxy(adapterFor(summariseComponent()), {
      get: (target, key, receiver) => {
        trapRuns++;
        return Reflect.get(target, key, receiver);
      },
      getOwnPropertyDescriptor: (target, key) => {
        trapRuns++;
        return Reflect.getOwnPropertyDescriptor(target, key);
      },
    });
    expectRefusedAt(
      bind((o) => {
        o.adapters[0] = proxy;
      }),
      '/adapters/0',
      /Proxy/,
    );
    expect(trapRuns).toBe(0);
    expectRefusedAt(
      bind((o) => {
        (o.adapters[0] as Any).component = { id: SUMMARISE_ID, revision: '1.0.0', extra: 1 };
      }),
      '/adapters/0/component',
      /must be plain JSON \{"id": string, "revision": string\}/,
    );
  });

  it('never quote a secret-looking host value', () => {
    const token = `ghp_${'Z9y8X7w6V5'.repeat(4)}`;
    const findings = expectRefusedAt(
      bind((o) => {
        (o.adapters[0] as Any).capability = token;
      }),
      '/adapters/0/capability',
      /a value that is not shown/,
    );
    expect(JSON.stringify(findings)).not.toContain(token);
    const unknown = refused(
      bind((o) => {
        o.adapters.push(adapterFor(syntheticComponent(token.toLowerCase())));
      }),
    );
    expect(JSON.stringify(unknown)).not.toContain(token.toLowerCase());
  });
});

describe('digests through catalog.ts', () => {
  const catalogOf = (registry: ComponentPackRegistry) => {
    const result = catalogFromDefinitions([...builtinComponents(), ...registry.components], registry.packs);
    if (!result.ok) throw new Error(JSON.stringify(result.findings));
    return result.catalog;
  };
  const definitionDigest = (catalog: ReturnType<typeof catalogOf>, id: string) =>
    catalog.components.find((c) => c.definition.id === id)?.definitionDigest;

  it("changing a sibling moves the catalog digest and the pack's source digest, not another component's digest", () => {
    const before = admitted(validRegistryOptions());
    const edited = withPack((p) => {
      p.components[1].description = 'Counts the words of a text (edited).';
    });
    const after = admitted({ ...edited, adapters: validRegistryOptions().adapters });
    const [x, y] = [catalogOf(before), catalogOf(after)];
    expect(y.catalogDigest).not.toBe(x.catalogDigest);
    expect(after.packs[0]?.sourceDigest).not.toBe(before.packs[0]?.sourceDigest);
    expect(definitionDigest(y, SUMMARISE_ID)).toBe(definitionDigest(x, SUMMARISE_ID));
    expect(definitionDigest(y, WORD_COUNT_ID)).not.toBe(definitionDigest(x, WORD_COUNT_ID));
    expect(definitionDigest(y, 'agentdef.input')).toBe(definitionDigest(x, 'agentdef.input'));
  });

  it('reordering components or packs changes nothing', () => {
    const a = syntheticPack('acme.alpha', 3);
    const b = syntheticPack('acme.beta', 2);
    const base = catalogOf(admitted(optionsFor([a, b])));
    const reversedComponents = { ...a, components: [...a.components].reverse() };
    expect(digestComponentPackSource(reversedComponents)).toEqual(digestComponentPackSource(a));
    const reordered = catalogOf(admitted(optionsFor([b, reversedComponents])));
    expect(reordered.catalogDigest).toBe(base.catalogDigest);
    expect(reordered.adapterPolicyDigest).toBe(base.adapterPolicyDigest);
  });

  it('adding a pack moves the catalog and adapter-policy digests, not the existing components’ digests', () => {
    const one = catalogOf(admitted(validRegistryOptions()));
    const extra = syntheticPack('acme.extra', 1);
    const base = validRegistryOptions();
    const more = {
      packs: [...base.packs, extra],
      adapters: [...base.adapters, adapterFor(extra.components[0] as Any)],
      ownerResolvers: [...base.ownerResolvers, ownerResolverFor(extra.components[0] as Any)],
    };
    const two = catalogOf(admitted(more));
    expect(two.catalogDigest).not.toBe(one.catalogDigest);
    expect(two.adapterPolicyDigest).not.toBe(one.adapterPolicyDigest);
    expect(definitionDigest(two, SUMMARISE_ID)).toBe(definitionDigest(one, SUMMARISE_ID));
    expect(two.packs.map((p) => p.id)).toEqual(['acme.extra', TEXT_PACK_ID]);
  });

  it('a new pack revision with the same components moves the catalog digest (pack membership is bound)', () => {
    const one = catalogOf(admitted(validRegistryOptions()));
    const bumped = withPack((p) => {
      p.revision = '1.2.1';
    });
    const two = catalogOf(admitted(bumped));
    expect(two.catalogDigest).not.toBe(one.catalogDigest);
    expect(definitionDigest(two, SUMMARISE_ID)).toBe(definitionDigest(one, SUMMARISE_ID));
  });
});

/** `[<hole>, item]`. */
function sparseList(item: unknown): unknown[] {
  const list = [undefined, item];
  delete list[0];
  return list;
}

describe('hostile options never make it throw', () => {
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const throwing = new Proxy(
    {},
    {
      get: () => {
        throw new Error('trap');
      },
      getOwnPropertyDescriptor: () => {
        throw new Error('trap');
      },
      ownKeys: () => {
        throw new Error('trap');
      },
      getPrototypeOf: () => {
        throw new Error('trap');
      },
    },
  );
  const getterOptions = Object.defineProperty({ adapters: [], ownerResolvers: [] }, 'packs', {
    get: () => {
      throw new Error('getter');
    },
    enumerable: true,
  });
  const cases: [string, unknown, string][] = [
    ['undefined', undefined, ''],
    ['null', null, ''],
    ['a string', 'packs', ''],
    ['a revoked Proxy', revoked.proxy, ''],
    ['a throwing Proxy', throwing, ''],
    ['a getter for packs', getterOptions, '/packs'],
    ['packs missing', { adapters: [], ownerResolvers: [] }, '/packs'],
    ['packs not an array', { packs: {}, adapters: [], ownerResolvers: [] }, '/packs'],
    ['packs a revoked Proxy', { packs: revoked.proxy, adapters: [], ownerResolvers: [] }, '/packs'],
    ['packs a throwing Proxy', { packs: throwing, adapters: [], ownerResolvers: [] }, '/packs'],
    ['a pack that is a throwing Proxy', { packs: [throwing], adapters: [], ownerResolvers: [] }, '/packs/0'],
    ['a sparse pack list', { packs: sparseList(validPack()), adapters: [], ownerResolvers: [] }, '/packs/0'],
    ['a huge sparse pack list', { packs: new Array(2 ** 31), adapters: [], ownerResolvers: [] }, '/packs'],
    ['adapters a throwing Proxy', { packs: [], adapters: throwing, ownerResolvers: [] }, '/adapters'],
    ['an adapter that is a revoked Proxy', { packs: [], adapters: [revoked.proxy], ownerResolvers: [] }, '/adapters/0'],
    ['an adapter that is a function', { packs: [], adapters: [() => 1], ownerResolvers: [] }, '/adapters/0'],
    ['a resolver that is null', { packs: [], adapters: [], ownerResolvers: [null] }, '/ownerResolvers/0'],
  ];
  for (const [name, options, path] of cases) {
    it(`gives a located finding for ${name}`, () => {
      let result: ComponentPackRegistryResult | undefined;
      expect(() => {
        result = createApplicationComponentPackRegistry(options as never);
      }).not.toThrow();
      expect(result?.ok).toBe(false);
      if (result !== undefined && !result.ok) expect(result.findings.map((finding) => finding.path)).toContain(path);
    });
  }
});

describe('no scanning, discovery or download', () => {
  it('the admission modules import no file system, network or process module themselves', () => {
    const modules = [
      'component-pack-registry.ts',
      'pack-document-admission.ts',
      'pack-admission-limits.ts',
      'adapter-admission.ts',
      'host-object.ts',
      'schema-validator.ts',
    ];
    const external = new Set<string>();
    for (const file of modules) {
      const source = readFileSync(join(__dirname, file), 'utf8');
      for (const match of source.matchAll(/\bfrom '([^']+)'|\bimport\(\s*'([^']+)'|\brequire\(\s*'([^']+)'/g)) {
        const specifier = match[1] ?? match[2] ?? match[3] ?? '';
        if (!specifier.startsWith('.')) external.add(specifier);
      }
    }
    expect([...external].sort()).toEqual(['ajv/dist/2020', 'node:util']);
  });
});
