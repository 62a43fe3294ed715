import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../definition/diagnostic';
import type { ApplicationManifest } from '../schema/generated/application-manifest.types';
import {
  asText,
  edited,
  positionOf,
  TEST_CATALOG,
  TEST_COMPONENTS,
  validManifest,
} from './__test-support__/application-manifests';
import { type ComponentCatalogView, findCycle, graphFindings } from './graph-rules';
import { validateApplicationManifestText } from './manifest-validate';

const FORMATS = ['json', 'yaml'] as const;

function check(manifest: ApplicationManifest, format: 'json' | 'yaml') {
  const text = asText(manifest, format);
  return {
    text,
    result: validateApplicationManifestText(text, `application.${format}`, format, { catalog: TEST_CATALOG }),
  };
}

/** `rule path` of every graph finding, sorted; `null` runs without a catalog. */
function rules(manifest: ApplicationManifest, catalog: ComponentCatalogView | null = TEST_CATALOG): string[] {
  return graphFindings(manifest, catalog ?? undefined)
    .map((f) => `${f.rule} ${f.path}`)
    .sort();
}

/** json: the value starts one character before its text (the quote); yaml: at the text. */
const shift = (format: 'json' | 'yaml') => (format === 'json' ? -1 : 0);

const node = (id: string, component: string) => ({ id, component: { id: component, revision: '1.0.0' }, config: {} });
const edge = (from: string, fromPort: string, to: string, toPort: string) => ({
  from: { node: from, port: fromPort },
  to: { node: to, port: toPort },
});

describe('the valid fixture', () => {
  it('has no graph findings, with or without the catalog', () => {
    expect(graphFindings(validManifest(), TEST_CATALOG)).toEqual([]);
    expect(graphFindings(validManifest())).toEqual([]);
  });
});

describe('components', () => {
  for (const format of FORMATS) {
    it(`an unknown revision is not resolved to a near one (${format})`, () => {
      const manifest = edited((m) => {
        m.nodes[2].component.revision = '1.0.1';
      });
      const { text, result } = check(manifest, format);
      const d = result.diagnostics.find((x) => x.rule === 'unknown-component')!;
      expect(d).toMatchObject({ path: '/nodes/2/component', code: ERROR_CODES.applicationInvalid });
      expect(d.message).toContain('agentdef.registered-agent@1.0.1');
      // YAML's component mapping starts at its first key; JSON's at its brace.
      expect(d).toMatchObject(
        format === 'json'
          ? positionOf(text, '"component": {', 3, '"component": '.length)
          : positionOf(text, 'id: agentdef.registered-agent'),
      );
      expect(result.valid).toBe(false);
    });
  }

  it('an unknown component id is reported once and its ports are not checked', () => {
    const manifest = edited((m) => {
      m.nodes[1].component.id = 'agentdef.prompt';
    });
    expect(rules(manifest)).toEqual(['unknown-component /nodes/1/component']);
  });
});

describe('edges, entrypoints and outputs', () => {
  for (const format of FORMATS) {
    it(`name existing nodes, located at the node name (${format})`, () => {
      const manifest = edited((m) => {
        m.edges.push(edge('ghost', 'value', 'planner', 'context'));
        m.entrypoints.push({ node: 'phantom', port: 'value' });
        m.outputs.push({ name: 'extra', node: 'spectre', port: 'value' });
      });
      const { text, result } = check(manifest, format);
      const at = (path: string) => result.diagnostics.find((d) => d.rule === 'unknown-node' && d.path === path);
      expect(at('/edges/3/from/node')).toMatchObject(positionOf(text, 'ghost', 1, shift(format)));
      expect(at('/entrypoints/1/node')).toMatchObject(positionOf(text, 'phantom', 1, shift(format)));
      expect(at('/outputs/1/node')).toMatchObject(positionOf(text, 'spectre', 1, shift(format)));
      expect(result.valid).toBe(false);
    });
  }

  for (const format of FORMATS) {
    it(`name ports on the right side, located at the port name (${format})`, () => {
      const manifest = edited((m) => {
        m.edges[0].from.port = 'nosuch';
        m.edges[1].to.port = 'plan';
        m.entrypoints[0].port = 'value';
        m.entrypoints.push({ node: 'planner', port: 'plan' });
        m.outputs[0].port = 'valu';
      });
      const { text, result } = check(manifest, format);
      const unknown = result.diagnostics.filter((d) => d.rule === 'unknown-port');
      const at = (path: string) => unknown.find((d) => d.path === path)!;
      expect(at('/edges/0/from/port').message).toMatch(/has no output port `nosuch`/);
      expect(at('/edges/0/from/port').suggestion).toBe('its output ports: `value`');
      expect(at('/edges/0/from/port')).toMatchObject(positionOf(text, 'nosuch', 1, shift(format)));
      expect(at('/edges/1/to/port').message).toMatch(
        /`plan` is an output port of node `planner`.*must be an input port/,
      );
      expect(at('/entrypoints/1/port').message).toMatch(/`plan` is an output port/);
      expect(at('/outputs/0/port').message).toMatch(/has no output port `valu`/);
      expect(at('/outputs/0/port')).toMatchObject(
        format === 'json' ? positionOf(text, '"valu"') : positionOf(text, 'port: valu\n', 1, 'port: '.length),
      );
      expect(unknown).toHaveLength(4);
    });
  }

  it('ports are read as own declarations: `constructor` and `toString` are not ports', () => {
    const manifest = edited((m) => {
      m.edges[2].to.port = 'constructor';
      m.outputs[0].port = 'toString';
    });
    expect(rules(manifest)).toEqual(
      expect.arrayContaining(['unknown-port /edges/2/to/port', 'unknown-port /outputs/0/port']),
    );
  });
});

describe('producers', () => {
  for (const format of FORMATS) {
    it(`a required input with no producer is a dangling input, located at the node (${format})`, () => {
      const manifest = edited((m) => {
        m.nodes.push(node('checker', 'agentdef.approved-artifact'));
        m.edges.push(edge('checker', 'artifact', 'result', 'value'));
        m.outputs.push({ name: 'checked', node: 'checker', port: 'artifact' });
        m.edges.splice(2, 1);
      });
      const { text, result } = check(manifest, format);
      const dangling = result.diagnostics.filter((d) => d.rule === 'dangling-input');
      expect(dangling.map((d) => d.path)).toEqual(['/nodes/4/id']);
      expect(dangling[0]!.message).toMatch(/required input `request` of node `checker`/);
      expect(dangling[0]!).toMatchObject(positionOf(text, 'checker', 1, shift(format)));
    });
  }

  it('an optional input may have no producer, but not two', () => {
    expect(rules(validManifest())).toEqual([]);
    const manifest = edited((m) => {
      m.edges.push(edge('question', 'value', 'planner', 'context'));
      m.edges.push(edge('template', 'prompt', 'planner', 'context'));
    });
    const found = graphFindings(manifest, TEST_CATALOG);
    expect(found.map((f) => `${f.rule} ${f.path}`)).toEqual(['two-producers /edges/4']);
    expect(found[0]!.message).toContain('/edges/3');
  });

  for (const format of FORMATS) {
    it(`a required input with two producers is refused at the second edge (${format})`, () => {
      const manifest = edited((m) => {
        m.nodes.push(node('rephrase', 'agentdef.prompt-template'));
        m.edges.push(edge('question', 'value', 'rephrase', 'vars'));
        m.edges.push(edge('rephrase', 'prompt', 'planner', 'prompt'));
      });
      const { text, result } = check(manifest, format);
      const two = result.diagnostics.filter((d) => d.rule === 'two-producers');
      expect(two.map((d) => d.path)).toEqual(['/edges/4']);
      expect(two[0]!.message).toMatch(/input `planner.prompt` already has a producer \(the edge at \/edges\/1/);
      const lines = text.split('\n');
      // The fifth edge starts on the line of its `from` (YAML) or the line of its brace (JSON).
      expect(lines[two[0]!.line - 1]).toMatch(format === 'json' ? /^\s+\{$/ : /^ {2}- from:$/);
      expect(result.valid).toBe(false);
    });
  }

  for (const format of FORMATS) {
    it(`an entrypoint with a producer inside the graph is refused (${format})`, () => {
      const manifest = edited((m) => {
        m.entrypoints.push({ node: 'template', port: 'vars' });
      });
      const { result } = check(manifest, format);
      const d = result.diagnostics.find((x) => x.rule === 'entrypoint-has-producer')!;
      expect(d.path).toBe('/entrypoints/1');
      expect(d.message).toMatch(/entrypoint `template.vars` is also produced inside the graph/);
    });
  }
});

describe('kinds', () => {
  for (const format of FORMATS) {
    it(`an output kind not assignable to the input kind is refused at the edge (${format})`, () => {
      const manifest = edited((m) => {
        m.nodes.push(node('fetch', 'agentdef.approved-artifact'));
        m.edges.push(edge('question', 'value', 'fetch', 'request'));
        m.edges.push(edge('fetch', 'artifact', 'planner', 'context'));
        // json into text: a JSON value is not known to be a string.
        m.edges[1] = edge('question', 'value', 'planner', 'prompt');
        m.nodes.splice(1, 1);
        m.edges.splice(0, 1);
      });
      const { result } = check(manifest, format);
      const mismatch = result.diagnostics.filter((d) => d.rule === 'kind-mismatch');
      expect(mismatch.map((d) => d.path)).toEqual(['/edges/0']);
      expect(mismatch[0]!.message).toBe(
        'edge question.value → planner.prompt: `question.value` produces `json`, which `planner.prompt` (accepting `text`) cannot take',
      );
      // artifact into json is assignable.
      expect(result.diagnostics.filter((d) => d.rule !== 'kind-mismatch')).toEqual([]);
    });
  }

  it('a kind outside the lattice connects to nothing, even to itself', () => {
    const odd: ComponentCatalogView = {
      lookup: (id, revision) =>
        id === 'agentdef.output'
          ? { inputs: { value: { kind: 'blob', required: true } }, outputs: { value: { kind: 'blob' } } }
          : TEST_CATALOG.lookup(id, revision),
    };
    const found = graphFindings(validManifest(), odd);
    expect(found.map((f) => `${f.rule} ${f.path}`)).toEqual(['kind-mismatch /edges/2']);
    expect(found[0]!.message).toMatch(/outside the kind lattice \("blob"\)/);
  });
});

describe('cycles', () => {
  for (const format of FORMATS) {
    it(`one cycle is reported, at the edge that closes it (${format})`, () => {
      const manifest = edited((m) => {
        m.edges.push(edge('result', 'value', 'planner', 'context'));
      });
      const { result } = check(manifest, format);
      const cycles = result.diagnostics.filter((d) => d.rule === 'cycle');
      expect(cycles.map((d) => d.path)).toEqual(['/edges/3']);
      expect(cycles[0]!.message).toBe(
        'the graph has a cycle: `planner` → `result` → `planner`; an application is acyclic',
      );
      expect(result.valid).toBe(false);
    });
  }

  it('a self-loop is a cycle', () => {
    const manifest = edited((m) => {
      m.edges.push(edge('planner', 'plan', 'planner', 'context'));
    });
    const found = graphFindings(manifest, TEST_CATALOG).filter((f) => f.rule === 'cycle');
    expect(found.map((f) => [f.path, f.message])).toEqual([
      ['/edges/3', 'the graph has a cycle: `planner` → `planner`; an application is acyclic'],
    ]);
  });

  it('the cycle reported does not depend on the order of nodes and edges', () => {
    const manifest = edited((m) => {
      m.edges.push(edge('result', 'value', 'planner', 'context'));
      m.edges.push(edge('template', 'prompt', 'question', 'value'));
    });
    const message = graphFindings(manifest).find((f) => f.rule === 'cycle')!.message;
    const shuffled = structuredClone(manifest);
    shuffled.nodes.reverse();
    shuffled.edges.reverse();
    expect(graphFindings(shuffled).find((f) => f.rule === 'cycle')!.message).toBe(message);
    expect(findCycle(['a', 'b'], [])).toBeUndefined();
  });
});

describe('every node on an entrypoint-to-output path', () => {
  for (const format of FORMATS) {
    it(`a node no entrypoint reaches is refused, located at its id (${format})`, () => {
      const manifest = edited((m) => {
        m.nodes.push(node('background', 'agentdef.input'));
        m.edges.push(edge('background', 'value', 'planner', 'context'));
      });
      const { text, result } = check(manifest, format);
      const graph = result.diagnostics.filter((d) => !['schema'].includes(d.rule));
      expect(graph.map((d) => `${d.rule} ${d.path}`)).toEqual([
        'dangling-input /nodes/4/id',
        'unreachable-node /nodes/4/id',
      ]);
      expect(graph[1]!).toMatchObject(positionOf(text, 'background', 1, shift(format)));
    });
  }

  for (const format of FORMATS) {
    it(`a node that reaches no output is refused, located at its id (${format})`, () => {
      const manifest = edited((m) => {
        m.nodes.push(node('audit', 'agentdef.output'));
        m.edges.push(edge('question', 'value', 'audit', 'value'));
      });
      const { text, result } = check(manifest, format);
      expect(result.diagnostics.map((d) => `${d.rule} ${d.path}`)).toEqual(['dead-end-node /nodes/4/id']);
      expect(result.diagnostics[0]!.message).toBe('node `audit` reaches no output');
      expect(result.diagnostics[0]!).toMatchObject(positionOf(text, 'audit', 1, shift(format)));
    });
  }

  it('an isolated node is both', () => {
    const manifest = edited((m) => {
      m.nodes.push(node('island', 'agentdef.output'));
    });
    expect(rules(manifest, null)).toEqual(['dead-end-node /nodes/4/id', 'unreachable-node /nodes/4/id']);
  });
});

describe('without a catalog', () => {
  it('the node-level rules run and the port-level rules do not', () => {
    const manifest = edited((m) => {
      m.nodes[0].component.revision = '9.9.9';
      m.edges[2].to.port = 'nosuch';
      m.edges.push(edge('result', 'value', 'template', 'vars'));
      m.edges.push(edge('nobody', 'value', 'template', 'vars'));
    });
    expect(rules(manifest, null)).toEqual([
      'cycle /edges/1',
      'two-producers /edges/3',
      'unknown-node /edges/4/from/node',
    ]);
  });
});

describe('the catalog view', () => {
  it('is asked for exact ids and revisions only', () => {
    const asked: string[] = [];
    const spy: ComponentCatalogView = {
      lookup: (id, revision) => {
        asked.push(`${id}@${revision}`);
        return TEST_CATALOG.lookup(id, revision);
      },
    };
    graphFindings(validManifest(), spy);
    expect(asked.sort()).toEqual(
      Object.keys(TEST_COMPONENTS)
        .filter((k) => !k.includes('approved'))
        .sort(),
    );
  });
});
