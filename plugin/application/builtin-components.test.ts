import { describe, expect, it } from 'vitest';
import { BUILTIN_REVISION, builtinComponents } from './builtin-components';
import { controlFieldKind } from './control-fields';
import { controlFieldFindings } from './manifest-validate';
import { checkPackConfigSchema, compilePackConfigSchema } from './pack-schema-dialect';
import { isPortKind } from './port-kinds';
import { stableApplicationJson } from './stable-json';

const byId = () => new Map(builtinComponents().map((c) => [c.id, c]));

/** Every property name a schema declares, at any depth. */
function declaredNames(schema: unknown): string[] {
  const names: string[] = [];
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    const properties = (node as Record<string, unknown>)['properties'];
    if (properties && typeof properties === 'object') {
      for (const [name, sub] of Object.entries(properties)) {
        names.push(name);
        walk(sub);
      }
    }
    for (const [key, sub] of Object.entries(node)) if (key !== 'properties') walk(sub);
  };
  walk(schema);
  return names;
}

describe('the five v1 built-in components', () => {
  it('are exactly the five ids at revision 1.0.0, in id order', () => {
    const components = builtinComponents();
    expect(components.map((c) => `${c.id}@${c.revision}`)).toEqual([
      'agentdef.approved-artifact@1.0.0',
      'agentdef.input@1.0.0',
      'agentdef.output@1.0.0',
      'agentdef.prompt-template@1.0.0',
      'agentdef.registered-agent@1.0.0',
    ]);
    expect(BUILTIN_REVISION).toBe('1.0.0');
  });

  it('are plain JSON data (no functions, no getters) and deep-frozen fresh copies', () => {
    const first = builtinComponents();
    expect(stableApplicationJson(first).ok).toBe(true);
    expect(Object.isFrozen(first[0]!.configSchema)).toBe(true);
    expect(() => {
      (first[0] as { id: string }).id = 'evil';
    }).toThrow();
    expect(builtinComponents()).not.toBe(first);
    expect(builtinComponents()).toEqual(first);
  });

  it('declare the side effects, replay classes, modes and owners decided for v1', () => {
    const c = byId();
    for (const id of ['agentdef.input', 'agentdef.prompt-template', 'agentdef.registered-agent', 'agentdef.output']) {
      expect(c.get(id)!.sideEffect).toBe('none');
      expect(c.get(id)!.replay).toBe('deterministic');
      expect(c.get(id)!.owner.selection).toBe('builtin');
    }
    expect(c.get('agentdef.approved-artifact')!.sideEffect).toBe('external');
    expect(c.get('agentdef.approved-artifact')!.replay).toBe('fenced-once');
    expect(c.get('agentdef.approved-artifact')!.owner).toEqual({
      name: 'agentdef.gateway',
      selection: 'host-injected',
    });
    expect(c.get('agentdef.registered-agent')!.owner.name).toBe('agentdef.plan-agent');
    for (const component of c.values()) expect(component.modes).toEqual(['dry-run', 'live']);
  });

  it('have typed ports whose kinds are all in the port-kind lattice', () => {
    const c = byId();
    for (const component of c.values()) {
      for (const port of [...Object.values(component.ports.inputs), ...Object.values(component.ports.outputs)])
        expect(isPortKind(port.kind)).toBe(true);
    }
    expect(c.get('agentdef.prompt-template')!.ports.outputs).toMatchObject({ prompt: { kind: 'text' } });
    expect(c.get('agentdef.registered-agent')!.ports.inputs).toMatchObject({
      prompt: { kind: 'text', required: true },
      context: { kind: 'json', required: false },
    });
    expect(c.get('agentdef.registered-agent')!.ports.outputs).toEqual({
      plan: expect.objectContaining({ kind: 'agent-plan' }),
    });
    expect(c.get('agentdef.approved-artifact')!.ports.outputs).toEqual({
      artifact: expect.objectContaining({ kind: 'artifact' }),
    });
    expect(Object.keys(c.get('agentdef.input')!.ports.outputs)).toEqual(['value']);
    expect(Object.keys(c.get('agentdef.output')!.ports.inputs)).toEqual(['value']);
  });

  it('have configuration schemas in the closed pack dialect', () => {
    for (const component of builtinComponents()) {
      expect(checkPackConfigSchema(component.configSchema), component.id).toEqual([]);
      expect(compilePackConfigSchema(component.configSchema).ok, component.id).toBe(true);
    }
  });

  it('have configuration schemas with no control field anywhere (by name and by walk)', () => {
    for (const component of builtinComponents()) {
      for (const name of declaredNames(component.configSchema))
        expect(controlFieldKind(name), `${component.id}: ${name}`).toBeUndefined();
      expect(controlFieldFindings(component.configSchema), component.id).toEqual([]);
    }
  });

  const compiled = (id: string) => {
    const schema = byId().get(id)!.configSchema;
    const result = compilePackConfigSchema(schema);
    if (!result.ok) throw new Error('not compiled');
    return result.validate;
  };

  it('accept the configurations they document', () => {
    expect(compiled('agentdef.registered-agent')({ slug: 'support-agent', version: '1.2.0' })).toEqual([]);
    expect(
      compiled('agentdef.approved-artifact')({ artifactDigest: 'a'.repeat(64), capability: 'tickets.create' }),
    ).toEqual([]);
    expect(compiled('agentdef.prompt-template')({ template: 'Triage: {{question}}', variables: ['question'] })).toEqual(
      [],
    );
    expect(compiled('agentdef.input')({})).toEqual([]);
    expect(compiled('agentdef.output')({ description: 'the plan' })).toEqual([]);
  });

  it('refuse unknown members, control fields, missing required members and wrong types', () => {
    expect(
      compiled('agentdef.registered-agent')({ slug: 'a', version: '1.0.0', endpoint: 'https://x' }).length,
    ).toBeGreaterThan(0);
    expect(compiled('agentdef.registered-agent')({ slug: 'a' }).length).toBeGreaterThan(0);
    expect(
      compiled('agentdef.approved-artifact')({ artifactDigest: 'a'.repeat(63), capability: 'x' }).length,
    ).toBeGreaterThan(0);
    expect(
      compiled('agentdef.approved-artifact')({ artifactDigest: 'a'.repeat(64), capability: 'x', approval: true })
        .length,
    ).toBeGreaterThan(0);
    expect(compiled('agentdef.prompt-template')({ template: '' }).length).toBeGreaterThan(0);
    expect(compiled('agentdef.prompt-template')({ template: 'x', variables: ['a', 'a'] }).length).toBeGreaterThan(0);
    expect(compiled('agentdef.input')({ command: 'rm -rf /' }).length).toBeGreaterThan(0);
    expect(compiled('agentdef.output')([]).length).toBeGreaterThan(0);
  });
});
