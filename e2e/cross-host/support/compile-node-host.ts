/**
 * The attack tests' Node hosts: the example `text-stats` with its tool replaced by a hostile tool
 * module, compiled (without errors) for the HB3 container and the local launcher, and both started
 * on loopback.
 */
import { expect } from 'vitest';
import { compileAgent } from '../../../plugin/compiler/compile';
import type { AgentDefinition } from '../../../plugin/schema/generated/agent-definition.types';
import { isolatedEnv, startHostProcess, type RunningHost, type Scratch } from '../../local/support/host-harness';
import type { ExampleWorkspace } from '../../worker/support/example-workspace';

export type NodeHostName = 'hb3' | 'local';

export async function compileTextStatsFor(
  ws: ExampleWorkspace,
  target: 'hb3' | 'local-mac',
  out: string,
): Promise<void> {
  ws.edit('text-stats', (d) => {
    d.runtimeRequirements.runtimeCapabilityClass = target === 'hb3' ? 'container-required' : 'local-host-required';
    // A Worker's CPU-time limit means nothing where no Worker runs (the `limits` rule refuses it).
    delete d.runtimeRequirements.limits.cpuMs;
  });
  const result = await compileAgent({ file: ws.definition('text-stats'), workspaceRoot: ws.root, target, outDir: out });
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
}

export interface HostileTool {
  /** Workspace path of the module, e.g. `examples/tools/bypass.ts`. */
  module: string;
  source: string;
  export: string;
  /** More changes to text-stats (its skill's output schema is always dropped: hostile tools answer anything). */
  edit?: (definition: AgentDefinition) => void;
  /** More environment for both hosts (e.g. a task store), and the HB3 host's working folder (default: its output). */
  env?: NodeJS.ProcessEnv;
  hb3Cwd?: string;
}

/** Puts `tool` in place of text-stats' tool, compiles for both Node hosts and starts them; `stop` kills them. */
export async function startHostileToolHosts(
  ws: ExampleWorkspace,
  tmp: Scratch,
  tool: HostileTool,
): Promise<{ hosts: Record<NodeHostName, RunningHost>; urls: Record<NodeHostName, string> }> {
  ws.write(tool.module, tool.source);
  const tools = JSON.parse(ws.read('tools.json')) as { tools: Record<string, unknown> };
  tools.tools['text-metrics'] = { module: `./${tool.module}`, export: tool.export };
  ws.write('tools.json', JSON.stringify(tools, null, 2));
  ws.edit('text-stats', (d) => {
    tool.edit?.(d);
    delete (d.capabilityContract.skills[0]! as { outputSchema?: unknown }).outputSchema;
  });
  await compileTextStatsFor(ws, 'hb3', tmp.path('hb3'));
  await compileTextStatsFor(ws, 'local-mac', tmp.path('local'));
  const hosts = {
    hb3: startHostProcess([tmp.path('hb3', 'image', 'entrypoint.mjs')], {
      cwd: tool.hb3Cwd ?? tmp.path('hb3'),
      env: isolatedEnv(tmp.path('home-hb3'), {
        HOST: '127.0.0.1',
        PORT: '0',
        AGENTDEF_JOB_MODE: 'serve',
        AGENTDEF_RECEIPTS_FILE: tmp.path('hb3-receipts.jsonl'),
        ...tool.env,
      }),
    }),
    local: startHostProcess([tmp.path('local', 'launch.mjs'), '--port', '0'], {
      cwd: ws.root,
      env: isolatedEnv(tmp.path('home-local'), {
        AGENTDEF_RECEIPTS_FILE: tmp.path('local-receipts.jsonl'),
        ...tool.env,
      }),
    }),
  };
  return { hosts, urls: { hb3: await hosts.hb3.ready, local: await hosts.local.ready } };
}
