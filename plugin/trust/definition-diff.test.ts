/** The semver policy over pairs of example definitions, each pair one edit apart. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../schema/generated/agent-definition.types';
import { checkBump, type DefinitionChange, diffDefinitions, requiredBump } from './definition-diff';

const EXAMPLES = join(__dirname, '..', '..', 'examples');

function example(slug: string): AgentDefinition {
  return JSON.parse(readFileSync(join(EXAMPLES, slug, 'agent.json'), 'utf8')) as AgentDefinition;
}

/** The example, edited by `edit` on a deep copy. */
function edited(slug: string, edit: (d: AgentDefinition) => void): AgentDefinition {
  const copy = example(slug);
  edit(copy);
  return copy;
}

const summary = (changes: DefinitionChange[]) => changes.map((c) => `${c.bump} ${c.kind} ${c.in}:${c.pointer}`);

describe('diffDefinitions over edited examples', () => {
  it('finds nothing between a definition and itself, or when only the version fields move', () => {
    expect(diffDefinitions(example('text-classify'), example('text-classify'))).toEqual([]);
    const bumped = edited('text-classify', (d) => {
      d.identity.versionSemver = '1.0.1';
      d.identity.versionId = '01KT07NVZ82X6GXFJYC4ACSNN5';
    });
    expect(diffDefinitions(example('text-classify'), bumped)).toEqual([]);
  });

  it('classifies descriptions, tags and examples as patch', () => {
    const after = edited('text-classify', (d) => {
      d.metadata.description = 'Another description.';
      d.metadata.tags.push('new-tag');
      d.capabilityContract.skills[0]!.examples = ['is this code?'];
      d.capabilityContract.skills[0]!.tags = ['classification', 'text'];
    });
    const changes = diffDefinitions(example('text-classify'), after);
    expect(summary(changes)).toEqual([
      'patch removed old:/capabilityContract/skills/0/examples/0',
      'patch added new:/capabilityContract/skills/0/examples/0',
      'patch changed new:/metadata/description',
      'patch added new:/metadata/tags/3',
    ]);
    expect(requiredBump(changes)).toBe('patch');
    expect(changes.every((c) => c.reason.length > 0 && !c.reason.includes('\n'))).toBe(true);
  });

  it('classifies an added skill and an added tool as minor, their removal as major', () => {
    const base = example('text-classify');
    const withSkill = edited('text-classify', (d) => {
      d.capabilityContract.skills.push({
        id: 'text.count',
        name: 'Count',
        description: 'Counts lines.',
        version: '1.0.0',
        tags: ['count'],
      });
      d.toolInventory.push({
        id: 'line-count',
        name: 'count_lines',
        version: '1.0.0',
        provenance: 'skill-package',
        risk: 'low',
      });
    });
    const added = diffDefinitions(base, withSkill);
    expect(summary(added)).toEqual([
      'minor added new:/capabilityContract/skills/1',
      'minor added new:/toolInventory/1',
    ]);
    expect(requiredBump(added)).toBe('minor');
    const removed = diffDefinitions(withSkill, base);
    expect(summary(removed)).toEqual([
      'major removed old:/capabilityContract/skills/1',
      'major removed old:/toolInventory/1',
    ]);
  });

  it('matches skills by id, not by position', () => {
    const two = edited('text-classify', (d) => {
      d.capabilityContract.skills.push({
        id: 'text.count',
        name: 'Count',
        description: 'Counts lines.',
        version: '1.0.0',
        tags: ['count'],
      });
    });
    const swapped = edited('text-classify', (d) => {
      d.capabilityContract.skills.unshift({
        id: 'text.count',
        name: 'Count',
        description: 'Counts lines.',
        version: '1.0.0',
        tags: ['count'],
      });
    });
    expect(diffDefinitions(two, swapped)).toEqual([]);
  });

  it('classifies removing or tightening an input, output, invariant or pin as major', () => {
    const base = example('text-classify');
    const cases: Array<[string, (d: AgentDefinition) => void, string]> = [
      [
        'input removed',
        (d) => void d.capabilityContract.inputs.pop(),
        'major removed old:/capabilityContract/inputs/1',
      ],
      [
        'output removed',
        (d) => void d.capabilityContract.outputs.splice(0, 1),
        'major removed old:/capabilityContract/outputs/0',
      ],
      [
        'input mode removed',
        (d) => void d.capabilityContract.skills[0]!.inputModes!.pop(),
        'major removed old:/capabilityContract/skills/0/inputModes/1',
      ],
      [
        'input schema added',
        (d) => void (d.capabilityContract.inputs[0]!.schema = { type: 'string', maxLength: 10 }),
        'major added new:/capabilityContract/inputs/0/schema',
      ],
      [
        'invariant removed',
        (d) => void d.capabilityContract.invariants.pop(),
        'major removed old:/capabilityContract/invariants/0',
      ],
      [
        'invariant added',
        (d) => void d.capabilityContract.invariants.push('Never empty.'),
        'major added new:/capabilityContract/invariants/1',
      ],
      [
        'output schema changed',
        (d) => void (d.capabilityContract.skills[0]!.outputSchema = { type: 'object' }),
        'major changed new:/capabilityContract/skills/0/outputSchema',
      ],
      [
        'limit lowered',
        (d) => void (d.runtimeRequirements.limits.cpuMs = 10),
        'major changed new:/runtimeRequirements/limits/cpuMs',
      ],
    ];
    for (const [what, edit, expected] of cases) {
      const changes = diffDefinitions(base, edited('text-classify', edit));
      expect(summary(changes), what).toEqual([expected]);
      expect(requiredBump(changes), what).toBe('major');
    }
  });

  it('classifies model and child pins: any model pin change and any child version change is major', () => {
    const base = example('write-router');
    const model = diffDefinitions(
      base,
      edited('write-router', (d) => void (d.modelSet[0]!.modelVersion = '2025-01-01')),
    );
    expect(summary(model)).toEqual(['major changed new:/modelSet/0']);
    const child = diffDefinitions(
      base,
      edited('write-router', (d) => void (d.composition.nodes![0]!.version = '0.4.3')),
    );
    expect(summary(child)).toEqual(['major changed new:/composition/nodes/0/version']);
    const childAdded = diffDefinitions(
      base,
      edited('write-router', (d) => void d.composition.nodes!.push({ slug: 'text-stats', version: '1.0.0' })),
    );
    expect(summary(childAdded)).toEqual(['minor added new:/composition/nodes/2']);
  });

  it('classifies loosening as minor: a raised limit, a new input, a promotion, a removed binding', () => {
    const base = example('text-classify');
    const after = edited('text-classify', (d) => {
      d.runtimeRequirements.limits.wallClockMs = 5000;
      d.capabilityContract.inputs.push({ kind: 'file', mediaType: 'application/pdf' });
      d.runtimeRequirements.bindings = [];
    });
    expect(summary(diffDefinitions(base, after))).toEqual([
      'minor added new:/capabilityContract/inputs/2',
      'minor removed old:/runtimeRequirements/bindings/0',
      'minor changed new:/runtimeRequirements/limits/wallClockMs',
    ]);
    const promoted = diffDefinitions(
      example('write-router'),
      edited('write-router', (d) => void (d.lifecycleState = 'marketplace-published')),
    );
    expect(summary(promoted)).toEqual(['minor changed new:/lifecycleState']);
    const demoted = diffDefinitions(
      example('write-router'),
      edited('write-router', (d) => void (d.lifecycleState = 'mcp-resident')),
    );
    expect(summary(demoted)).toEqual(['major changed new:/lifecycleState']);
  });

  it('follows a nested skill or tool version: its own bump class, and going down is major', () => {
    const base = example('text-classify');
    const bump = (skill: string, tool: string) =>
      summary(
        diffDefinitions(
          base,
          edited('text-classify', (d) => {
            d.capabilityContract.skills[0]!.version = skill;
            d.toolInventory[0]!.version = tool;
          }),
        ),
      );
    expect(bump('1.0.1', '1.1.0')).toEqual([
      'patch changed new:/capabilityContract/skills/0/version',
      'minor changed new:/toolInventory/0/version',
    ]);
    expect(bump('2.0.0', '0.9.0')).toEqual([
      'major changed new:/capabilityContract/skills/0/version',
      'major changed new:/toolInventory/0/version',
    ]);
  });

  it('fails closed on fields the policy does not know', () => {
    const after = edited('text-classify', (d) => {
      (d as unknown as Record<string, unknown>)['futureField'] = { x: 1 };
      (d.identity as unknown as Record<string, unknown>)['nickname'] = 'tc';
    });
    const changes = diffDefinitions(example('text-classify'), after);
    expect(summary(changes)).toEqual(['major added new:/futureField', 'major added new:/identity/nickname']);
    expect(changes[0]!.reason).toContain('unclassified');
    expect(summary(diffDefinitions({ identity: 'text' }, { identity: { id: 1 } }))).toEqual([
      'major changed new:/identity',
    ]);
  });

  it('never throws and finds nothing between equal values, whatever the JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        const changes = diffDefinitions(a, b);
        expect(Array.isArray(changes)).toBe(true);
        expect(diffDefinitions(a, structuredClone(a))).toEqual([]);
        for (const c of changes) expect(['major', 'minor', 'patch']).toContain(c.bump);
      }),
    );
  });
});

describe('checkBump', () => {
  const change = (bump: DefinitionChange['bump']): DefinitionChange => ({
    pointer: '/x',
    in: 'new',
    kind: 'changed',
    bump,
    reason: 'test',
  });

  it('accepts a bump at least as large as the changes require', () => {
    expect(checkBump('1.2.3', '2.0.0', [change('major'), change('patch')])).toEqual({
      ok: true,
      required: 'major',
      actual: 'major',
    });
    expect(checkBump('1.2.3', '1.3.0', [change('minor')])).toEqual({ ok: true, required: 'minor', actual: 'minor' });
    expect(checkBump('1.2.3', '1.2.4', [change('patch')])).toEqual({ ok: true, required: 'patch', actual: 'patch' });
    expect(checkBump('1.2.3', '1.2.3', [])).toEqual({ ok: true, required: 'none', actual: 'none' });
    expect(checkBump('1.2.3', '1.2.3+build.7', [])).toEqual({ ok: true, required: 'none', actual: 'none' });
  });

  it('refuses a smaller bump and names the changes that require more', () => {
    const changes = [change('major'), change('minor'), change('patch')];
    const result = checkBump('1.2.3', '1.3.0', changes);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.cause).toBe('bump');
    expect(result.required).toBe('major');
    expect(result.actual).toBe('minor');
    expect(result.insufficient).toEqual([changes[0]]);
    expect(result.problem).toBe('the changes require a major bump, but 1.2.3 → 1.3.0 is a minor bump');
    const same = checkBump('1.2.3', '1.2.3', [change('patch')]);
    expect(same.ok === false && same.problem).toBe('the changes require a patch bump, but the version did not change');
  });

  it('treats 0.y.z like npm caret ranges: y is the breaking position, then z', () => {
    expect(checkBump('0.4.2', '0.5.0', [change('major')]).ok).toBe(true);
    expect(checkBump('0.4.2', '0.4.3', [change('minor')]).ok).toBe(true);
    expect(checkBump('0.4.2', '0.4.3', [change('major')]).ok).toBe(false);
    expect(checkBump('0.0.3', '0.0.4', [change('major')]).ok).toBe(true);
  });

  it('lets pre-releases of one release change freely, and requires the release step otherwise', () => {
    expect(checkBump('2.0.0-rc.1', '2.0.0-rc.2', [change('major')]).ok).toBe(true);
    expect(checkBump('2.0.0-rc.2', '2.0.0', [change('major')]).ok).toBe(true);
    expect(checkBump('1.9.0', '2.0.0-rc.1', [change('major')]).ok).toBe(true);
    expect(checkBump('1.9.0', '1.9.1-rc.1', [change('major')]).ok).toBe(false);
  });

  it('refuses a lower version and versions that are not exact semver', () => {
    const lower = checkBump('1.2.3', '1.2.2', []);
    expect(lower.ok === false && lower.cause).toBe('lower');
    const beforeRelease = checkBump('2.0.0', '2.0.0-rc.1', []);
    expect(beforeRelease.ok === false && beforeRelease.cause).toBe('lower');
    for (const bad of ['^1.2.3', 'latest', '1.2', 7, undefined]) {
      const result = checkBump('1.2.3', bad, []);
      expect(result.ok === false && result.cause, String(bad)).toBe('version');
    }
  });
});
