/**
 * The tool modules a compile reads come from every definition of its tree. Inference collects a
 * workspace-only subtree's tool ids once for all the agents above it; these trees try to make
 * that shortcut answer differently from a walk of each tree: shared subtrees, a pin cycle, a
 * tree that reaches a registry snapshot below a workspace child, and a pin nobody holds.
 */
import type { CreateNodesResult } from '@nx/devkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodesV2 } from './create-nodes';
import { definition, nodesContext, tempWorkspace, type DefinitionSpec, type TempWorkspace } from './test-support';

const withTool = (spec: DefinitionSpec, tool?: string): string => {
  const def = definition(spec) as { toolInventory?: unknown[] };
  if (tool !== undefined) {
    def.toolInventory = [{ id: tool, name: tool, version: '1.0.0', provenance: 'skill-package', risk: 'low' }];
  }
  return JSON.stringify(def, null, 2);
};

describe('compile inputs: the tool modules of a whole tree', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    delete process.env.NX_WORKSPACE_DATA_DIRECTORY;
    delete process.env.NX_PROJECT_GRAPH_CACHE_DIRECTORY;
    const tools = ['ta', 'tb', 'tc', 'td', 'te', 'tp', 'tq'];
    ws = tempWorkspace({
      'tools.json': JSON.stringify({
        tools: Object.fromEntries(tools.map((t) => [t, { module: `./tools/${t}/index.ts`, export: t }])),
      }),
      'agents/a/agent.json': withTool({ slug: 'a', version: '1.0.0', pins: ['b@1.0.0'] }, 'ta'),
      // b and c pin each other (a cycle the validator reports; inference must still answer).
      'agents/b/agent.json': withTool({ slug: 'b', version: '1.0.0', pins: ['c@1.0.0'] }, 'tb'),
      'agents/c/agent.json': withTool({ slug: 'c', version: '1.0.0', pins: ['b@1.0.0'] }, 'tc'),
      'agents/d/agent.json': withTool({ slug: 'd', version: '1.0.0', pins: ['a@1.0.0', 'f@1.0.0'] }, 'td'),
      // e reaches a registry snapshot below a workspace child (g), and one of its own.
      'agents/e/agent.json': withTool({ slug: 'e', version: '1.0.0', pins: ['g@1.0.0'] }, 'te'),
      'agents/f/agent.json': withTool({ slug: 'f', version: '1.0.0' }),
      'agents/g/agent.json': withTool({ slug: 'g', version: '1.0.0', pins: ['p@2.0.0', 'f@1.0.0'] }),
      'registry/agents/p/2.0.0.json': withTool({ slug: 'p', version: '2.0.0', pins: ['q@1.0.0'] }, 'tp'),
      // q exists only behind the snapshot: listed as a file, its tool read through it.
      'agents/q/agent.json': withTool({ slug: 'q', version: '1.0.0' }, 'tq'),
      // h pins something nobody holds (neither the workspace nor the registry).
      'agents/h/agent.json': withTool({ slug: 'h', version: '1.0.0', pins: ['f@1.0.0', 'nowhere@9.9.9'] }, 'ta'),
    });
  });
  afterEach(() => ws.remove());

  const compileInputs = async (): Promise<Record<string, unknown[]>> => {
    const files = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'q'].map((s) => `agents/${s}/agent.json`);
    const results = (await createNodesV2[1](files, undefined, nodesContext(ws.root))) as Array<
      readonly [string, CreateNodesResult]
    >;
    const out: Record<string, unknown[]> = {};
    for (const [, result] of results) {
      for (const project of Object.values(result.projects ?? {})) {
        out[project.name!] = (project.targets!.compile!.inputs ?? []).filter(
          (i) => typeof i === 'string' && i.startsWith('{workspaceRoot}/') && !i.startsWith('{workspaceRoot}/mcp.json'),
        );
      }
    }
    return out;
  };
  const modules = (...tools: string[]) => tools.map((t) => `{workspaceRoot}/tools/${t}/**/*`);
  const TOOLS_JSON = '{workspaceRoot}/tools.json';

  it('gives every agent the tools of its whole tree, in any order of inference, twice the same', async () => {
    const expected = {
      a: [TOOLS_JSON, ...modules('ta', 'tb', 'tc')],
      b: [TOOLS_JSON, ...modules('tb', 'tc')],
      c: [TOOLS_JSON, ...modules('tb', 'tc')],
      d: [TOOLS_JSON, ...modules('ta', 'tb', 'tc', 'td')],
      e: [
        '{workspaceRoot}/registry/agents/p/2.0.0.json',
        '{workspaceRoot}/agents/q/agent.json',
        '{workspaceRoot}/registry/agents/index.json',
        TOOLS_JSON,
        ...modules('te', 'tp', 'tq'),
      ],
      f: [TOOLS_JSON],
      g: [
        '{workspaceRoot}/registry/agents/p/2.0.0.json',
        '{workspaceRoot}/agents/q/agent.json',
        '{workspaceRoot}/registry/agents/index.json',
        TOOLS_JSON,
        ...modules('tp', 'tq'),
      ],
      h: [
        '{workspaceRoot}/registry/agents/nowhere/9.9.9.json',
        '{workspaceRoot}/registry/agents/index.json',
        TOOLS_JSON,
        ...modules('ta'),
      ],
      q: [TOOLS_JSON, ...modules('tq')],
    };
    expect(await compileInputs()).toEqual(expected);
    // A warm run (summaries from the inference cache) answers the same.
    expect(await compileInputs()).toEqual(expected);
  });
});
