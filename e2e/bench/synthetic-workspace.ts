/**
 * Writes synthetic workspaces for benchmarks: N agents in a random DAG of a given depth and
 * fan-out, reproducible from a seed. The same folders can be written as plain `package.json`
 * projects (dependencies = pins) so that Nx's own inference is measured on identical shapes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SyntheticOptions {
  dir: string;
  agents: number;
  depth: number;
  fanOut: number;
  seed: number;
  style: 'agentdef' | 'package-json';
}

/** Mulberry32: a tiny, seedable PRNG. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
function ulidFrom(random: () => number): string {
  let id = '0';
  for (let i = 1; i < 26; i++) id += CROCKFORD[Math.floor(random() * 32)];
  return id;
}

export interface SyntheticAgent {
  slug: string;
  version: string;
  level: number;
  children: string[];
}

export function syntheticDag(
  options: Pick<SyntheticOptions, 'agents' | 'depth' | 'fanOut' | 'seed'>,
): SyntheticAgent[] {
  const random = prng(options.seed);
  const agents: SyntheticAgent[] = [];
  for (let i = 0; i < options.agents; i++) {
    agents.push({
      slug: `agent-${String(i).padStart(5, '0')}`,
      version: `1.${i % 7}.0`,
      level: Math.floor((i * options.depth) / options.agents),
      children: [],
    });
  }
  const byLevel = new Map<number, SyntheticAgent[]>();
  for (const agent of agents) byLevel.set(agent.level, [...(byLevel.get(agent.level) ?? []), agent]);
  for (const agent of agents) {
    const below = byLevel.get(agent.level + 1) ?? [];
    if (below.length === 0) continue;
    const picks = new Set<string>();
    const count = 1 + Math.floor(random() * options.fanOut);
    for (let k = 0; k < count; k++) picks.add(below[Math.floor(random() * below.length)]!.slug);
    agent.children = [...picks].sort();
  }
  return agents;
}

function definitionFor(agent: SyntheticAgent, all: Map<string, SyntheticAgent>, random: () => number): unknown {
  const composed = agent.children.length > 0;
  return {
    schemaVersion: 'agent-definition/v1',
    identity: {
      id: ulidFrom(random),
      slug: agent.slug,
      name: `Synthetic ${agent.slug}`,
      versionSemver: agent.version,
      versionId: ulidFrom(random),
      owner: { kind: 'org', id: 'bench' },
      signingKeyRef: 'keyref:bench',
      ...(composed ? { kymRef: `kym://agents/${agent.slug}@${agent.version}` } : {}),
    },
    capabilityContract: {
      inputs: [{ kind: 'text', mediaType: 'text/plain' }],
      outputs: [{ kind: 'text', mediaType: 'text/plain' }],
      skills: [
        {
          id: `${agent.slug}.run`,
          name: 'Run',
          description: 'Synthetic skill.',
          version: agent.version,
          tags: ['bench'],
        },
      ],
      invariants: ['Answers in text.'],
    },
    modelSet: composed
      ? [
          {
            role: 'router',
            modelId: 'gpt-4o-mini',
            modelVersion: '2024-07-18',
            providerId: 'openai',
            samplingParams: { temperature: 0 },
            tier: 'small',
          },
        ]
      : [],
    toolInventory: [{ id: 'echo', name: 'echo', version: '1.0.0', provenance: 'skill-package', risk: 'low' }],
    composition: composed
      ? { kind: 'dag', nodes: agent.children.map((slug) => ({ slug, version: all.get(slug)!.version })), edges: [] }
      : { kind: 'leaf' },
    memoryContract: { refs: [], workingSetTokens: 1000, contextWindowBudget: 8000, compactionPolicy: 'drop' },
    telemetryContract: {
      receiptSigner: 'keyref:bench',
      receiptSchemaVersion: 'receipt/v1',
      telemetryKinds: ['events'],
      agenticGate: composed ? 'agentic' : 'tool-only',
      kymRegistrationRequired: composed,
    },
    runtimeRequirements: {
      runtimeCapabilityClass: 'workers-preferred',
      limits: { wallClockMs: 10000 },
      keyCustody: 'secrets-store',
      bindings: [],
    },
    lifecycleState: composed ? 'composed' : 'tool-shipped',
    metadata: {
      description: 'Synthetic benchmark agent.',
      tags: ['bench'],
      provenance: { repo: 'https://example.invalid/bench', filePath: `agents/${agent.slug}/agent.json` },
    },
  };
}

/** Writes the workspace and returns the DAG it wrote. */
export function writeSyntheticWorkspace(options: SyntheticOptions, pluginSpecifier: string): SyntheticAgent[] {
  const dag = syntheticDag(options);
  const all = new Map(dag.map((a) => [a.slug, a]));
  const random = prng(options.seed ^ 0x5eed);
  mkdirSync(options.dir, { recursive: true });
  const nxJson: Record<string, unknown> = { cacheDirectory: '.nx/cache', useDaemonProcess: false };
  if (options.style === 'agentdef') nxJson.plugins = [{ plugin: pluginSpecifier, include: ['agents/**/agent.json'] }];
  writeFileSync(join(options.dir, 'nx.json'), JSON.stringify(nxJson, null, 2));
  writeFileSync(
    join(options.dir, 'package.json'),
    JSON.stringify(
      {
        name: 'bench-workspace',
        private: true,
        ...(options.style === 'package-json' ? { workspaces: ['agents/*'] } : {}),
      },
      null,
      2,
    ),
  );
  if (options.style === 'agentdef') {
    // Every synthetic agent has the skill-package tool `echo`; adapters bundle its implementation.
    writeFileSync(
      join(options.dir, 'tools.json'),
      JSON.stringify({ tools: { echo: { module: './tools/echo.ts', export: 'echo' } } }, null, 2) + '\n',
    );
    mkdirSync(join(options.dir, 'tools'), { recursive: true });
    writeFileSync(
      join(options.dir, 'tools', 'echo.ts'),
      'export async function echo(args: Record<string, unknown>): Promise<unknown> {\n  return { echo: args };\n}\n',
    );
  }
  for (const agent of dag) {
    const folder = join(options.dir, 'agents', agent.slug);
    mkdirSync(folder, { recursive: true });
    if (options.style === 'agentdef') {
      writeFileSync(join(folder, 'agent.json'), JSON.stringify(definitionFor(agent, all, random), null, 2) + '\n');
    } else {
      const dependencies = Object.fromEntries(agent.children.map((slug) => [slug, all.get(slug)!.version]));
      writeFileSync(
        join(folder, 'package.json'),
        JSON.stringify({ name: agent.slug, version: agent.version, dependencies }, null, 2) + '\n',
      );
    }
  }
  return dag;
}
