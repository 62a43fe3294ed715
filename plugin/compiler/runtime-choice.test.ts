import { describe, expect, it } from 'vitest';
import type { Host, RuntimeCapabilityClass } from '../definition/runtime-hosts';
import type { ResolvedNode } from './resolve';
import { checkTarget, chooseRuntime, collectConstraints } from './runtime-choice';
import type { CompileTarget } from '../targets/targets';
import { agent, pins, tools, tree } from './test-support';

const splice = () =>
  tree(
    agent('splice-resolver', '0.4.2', {
      cls: 'container-required',
      models: [pins.tuned('splice-lora')],
      tools: [tools.native('ts-splice')],
    }),
  );
const fallback = () => tree(agent('fallback-writer', '1.1.0'));
const router = (cls: RuntimeCapabilityClass = 'workers-preferred') =>
  tree(agent('write-router', '1.4.0', { cls }), [splice(), fallback()]);

interface Chosen {
  name: string;
  root: ResolvedNode;
  target: CompileTarget;
  chosenClass: RuntimeCapabilityClass;
  hosts: Host[];
  /** Substrings of the reason. */
  reason: string[];
  /** `node element` of every reported constraint, in order. */
  constraints?: string[];
}

const chosenCases: Chosen[] = [
  {
    name: 'workers-only leaf with a remote pin and a bundled tool',
    root: tree(agent('a', '1.0.0', { cls: 'workers-only' })),
    target: 'cloudflare-dynamic-worker',
    chosenClass: 'workers-only',
    hosts: ['worker'],
    reason: ['a@1.0.0 is workers-only; nothing in its tree needs more than a Worker'],
    constraints: ['a@1.0.0 /runtimeRequirements/runtimeCapabilityClass'],
  },
  {
    name: 'workers-preferred leaf that nothing narrows keeps its class',
    root: tree(agent('a', '1.0.0', { tools: [tools.skill(), tools.http()] })),
    target: 'cloudflare-dynamic-worker',
    chosenClass: 'workers-preferred',
    hosts: ['worker', 'container', 'local'],
    reason: ['nothing in its tree needs more than a Worker'],
    constraints: ['a@1.0.0 /runtimeRequirements/runtimeCapabilityClass'],
  },
  {
    name: 'workers-preferred router with a tuned child degrades to a container',
    root: router(),
    target: 'hb3',
    chosenClass: 'container-required',
    hosts: ['container', 'local'],
    reason: [
      'write-router@1.4.0 is workers-preferred but runs on a container (container-required)',
      'splice-resolver@0.4.2: tuned model pin "splice-lora" (specialist) loads checkpoint weights',
      'splice-resolver@0.4.2: native tool "ts-splice" runs a binary',
    ],
    constraints: [
      'write-router@1.4.0 /runtimeRequirements/runtimeCapabilityClass',
      'splice-resolver@0.4.2 /modelSet/0',
      'splice-resolver@0.4.2 /toolInventory/0',
      'splice-resolver@0.4.2 /runtimeRequirements/runtimeCapabilityClass',
    ],
  },
  {
    name: 'three levels: the grandchild decides',
    root: tree(agent('edit-assistant', '1.0.0'), [router()]),
    target: 'hb3',
    chosenClass: 'container-required',
    hosts: ['container', 'local'],
    reason: [
      'edit-assistant@1.0.0 is workers-preferred but runs on a container',
      'splice-resolver@0.4.2: tuned model pin "splice-lora"',
    ],
  },
  {
    name: 'a native tool of the root itself forces a container',
    root: tree(agent('a', '1.0.0', { tools: [tools.native('pdftotext')] })),
    target: 'hb3',
    chosenClass: 'container-required',
    hosts: ['container', 'local'],
    reason: ['a@1.0.0: native tool "pdftotext" runs a binary'],
    constraints: ['a@1.0.0 /runtimeRequirements/runtimeCapabilityClass', 'a@1.0.0 /toolInventory/0'],
  },
  {
    name: 'workers-preferred with a local-ollama child goes to the local host',
    root: tree(agent('a', '1.0.0'), [
      tree(agent('notes', '0.3.0', { cls: 'local-host-required', models: [pins.ollama()], tools: [tools.stdio()] })),
    ]),
    target: 'local-mac',
    chosenClass: 'local-host-required',
    hosts: ['local'],
    reason: [
      'notes@0.3.0: model pin "llama3.1:8b" (primary) runs on the local machine',
      'notes@0.3.0: MCP tool "notes" over stdio',
    ],
  },
  {
    name: 'container-required root keeps its class on a container',
    root: tree(agent('a', '1.0.0', { cls: 'container-required' })),
    target: 'hb3',
    chosenClass: 'container-required',
    hosts: ['container', 'local'],
    reason: ['a@1.0.0 is container-required; nothing in its tree needs more than a container'],
  },
  {
    name: 'container-required root with a local-only child runs on the local host',
    root: tree(agent('a', '1.0.0', { cls: 'container-required' }), [
      tree(agent('l', '1.0.0', { cls: 'local-host-required', models: [pins.ollama()] })),
    ]),
    target: 'local-mac',
    chosenClass: 'local-host-required',
    hosts: ['local'],
    reason: ['l@1.0.0: model pin "llama3.1:8b"'],
  },
  {
    name: 'local-host-required root with a stdio tool',
    root: tree(agent('a', '1.0.0', { cls: 'local-host-required', models: [pins.ollama()], tools: [tools.stdio()] })),
    target: 'local-mac',
    chosenClass: 'local-host-required',
    hosts: ['local'],
    reason: ['a@1.0.0 is local-host-required; nothing in its tree needs more than the local host'],
  },
  {
    name: 'a tool-only root (no models) with bundled tools runs on a Worker',
    root: tree(agent('a', '1.0.0', { cls: 'workers-only', models: [] })),
    target: 'cloudflare-dynamic-worker',
    chosenClass: 'workers-only',
    hosts: ['worker'],
    reason: ['nothing in its tree needs more than a Worker'],
  },
  {
    name: 'a workers-only child narrows a workers-preferred root to Workers without changing its class',
    root: tree(agent('a', '1.0.0'), [tree(agent('w', '1.0.0', { cls: 'workers-only' }))]),
    target: 'cloudflare-dynamic-worker',
    chosenClass: 'workers-preferred',
    hosts: ['worker'],
    reason: ['nothing in its tree needs more than a Worker'],
    constraints: [
      'a@1.0.0 /runtimeRequirements/runtimeCapabilityClass',
      'w@1.0.0 /runtimeRequirements/runtimeCapabilityClass',
    ],
  },
  {
    name: 'a child pinned twice (a diamond) is listed once in the constraints',
    root: tree(agent('a', '1.0.0'), [tree(agent('b', '1.0.0'), [splice()]), tree(agent('c', '1.0.0'), [splice()])]),
    target: 'hb3',
    chosenClass: 'container-required',
    hosts: ['container', 'local'],
    reason: ['splice-resolver@0.4.2: tuned model pin'],
    constraints: [
      'a@1.0.0 /runtimeRequirements/runtimeCapabilityClass',
      'splice-resolver@0.4.2 /modelSet/0',
      'splice-resolver@0.4.2 /toolInventory/0',
      'splice-resolver@0.4.2 /runtimeRequirements/runtimeCapabilityClass',
    ],
  },
];

describe('chooseRuntime: the strictest requirement in the tree wins', () => {
  for (const c of chosenCases) {
    it(c.name, () => {
      const { choice, diagnostics } = chooseRuntime(c.root);
      expect(diagnostics).toEqual([]);
      expect(choice).toBeDefined();
      expect(choice!.declaredClass).toBe(c.root.definition.runtimeRequirements.runtimeCapabilityClass);
      expect(choice!.target).toBe(c.target);
      expect(choice!.chosenClass).toBe(c.chosenClass);
      expect(choice!.hosts).toEqual(c.hosts);
      for (const part of c.reason) expect(choice!.reason).toContain(part);
      if (c.constraints) expect(choice!.constraints.map((k) => `${k.node} ${k.element}`)).toEqual(c.constraints);
    });
  }

  it('reports each constraint with its hosts and reason', () => {
    const { choice } = chooseRuntime(router());
    expect(choice!.constraints[1]).toEqual({
      node: 'splice-resolver@0.4.2',
      element: '/modelSet/0',
      hosts: ['container', 'local'],
      reason: 'tuned model pin "splice-lora" (specialist) loads checkpoint weights: a container or the local host',
    });
    expect(choice!.constraints[0]).toEqual({
      node: 'write-router@1.4.0',
      element: '/runtimeRequirements/runtimeCapabilityClass',
      hosts: ['worker', 'container', 'local'],
      reason: 'runtimeCapabilityClass "workers-preferred"',
    });
  });

  it('is a pure function of the tree', () => {
    expect(JSON.stringify(chooseRuntime(router()))).toBe(JSON.stringify(chooseRuntime(router())));
  });
});

interface Mismatch {
  name: string;
  root: ResolvedNode;
  /** Root-file pointers of the diagnostics. */
  paths: string[];
  messages: string[];
}

const mismatchCases: Mismatch[] = [
  {
    name: 'workers-only router with a tuned child',
    root: router('workers-only'),
    paths: ['/composition/nodes/0'],
    messages: [
      'write-router@1.4.0 is workers-only (a Worker), which cannot host',
      'splice-resolver@0.4.2: tuned model pin "splice-lora"',
      'splice-resolver@0.4.2: native tool "ts-splice"',
    ],
  },
  {
    name: 'a grandchild is reported at the pin of its top-level ancestor in the root file',
    root: tree(agent('a', '1.0.0', { cls: 'workers-only' }), [
      fallback(),
      tree(agent('b', '1.0.0', { cls: 'workers-only' }), [
        tree(agent('g', '1.0.0', { tools: [tools.native('ffmpeg')] })),
      ]),
    ]),
    paths: ['/composition/nodes/1'],
    messages: ['g@1.0.0: native tool "ffmpeg" runs a binary'],
  },
  {
    name: "the root's own stdio tool under workers-only",
    root: tree(agent('a', '1.0.0', { cls: 'workers-only', tools: [tools.skill(), tools.stdio('notes')] })),
    paths: ['/toolInventory/1'],
    messages: ['a@1.0.0: MCP tool "notes" over stdio runs on the local host only'],
  },
  {
    name: "the root's own local-ollama pin under container-required",
    root: tree(agent('a', '1.0.0', { cls: 'workers-preferred', models: [pins.small(), pins.ollama()] }), [
      tree(agent('w', '1.0.0', { cls: 'workers-only' })),
    ]),
    paths: ['/composition/nodes/0', '/modelSet/1'],
    messages: [
      'no host satisfies every requirement',
      'a@1.0.0: model pin "llama3.1:8b"',
      'w@1.0.0: runtimeCapabilityClass "workers-only"',
    ],
  },
  {
    name: 'two children that each fit the root but not each other',
    root: tree(agent('a', '1.0.0'), [tree(agent('w', '1.0.0', { cls: 'workers-only' })), splice()]),
    paths: ['/composition/nodes/0', '/composition/nodes/1'],
    messages: [
      'no host satisfies every requirement in the tree of a@1.0.0 (workers-preferred)',
      'w@1.0.0: runtimeCapabilityClass "workers-only"',
      'splice-resolver@0.4.2: tuned model pin',
    ],
  },
  {
    name: 'a local-host-required root with a workers-only child',
    root: tree(agent('a', '1.0.0', { cls: 'local-host-required', models: [pins.ollama()] }), [
      tree(agent('w', '1.0.0', { cls: 'workers-only' })),
    ]),
    paths: ['/composition/nodes/0'],
    messages: [
      'a@1.0.0 is local-host-required (the local host), which cannot host: w@1.0.0: runtimeCapabilityClass "workers-only"',
    ],
  },
];

describe('chooseRuntime: an empty intersection is runtime_capability_mismatch', () => {
  for (const c of mismatchCases) {
    it(c.name, () => {
      const { choice, diagnostics } = chooseRuntime(c.root);
      expect(choice).toBeUndefined();
      expect(diagnostics.map((d) => d.path).sort()).toEqual([...c.paths].sort());
      for (const d of diagnostics) {
        expect(d.code).toBe('runtime_capability_mismatch');
        expect(d.severity).toBe('error');
        expect(d.file).toBe(c.root.file);
      }
      const all = diagnostics.map((d) => d.message).join('\n');
      for (const m of c.messages) expect(all).toContain(m);
    });
  }
});

describe('checkTarget: an explicit target fails closed', () => {
  const table: {
    name: string;
    root: () => ResolvedNode;
    target: CompileTarget;
    paths: string[];
    mention?: string[];
  }[] = [
    {
      name: 'router on a Worker',
      root: () => router(),
      target: 'cloudflare-dynamic-worker',
      paths: ['/composition/nodes/0'],
      mention: [
        'splice-resolver@0.4.2: tuned model pin "splice-lora"',
        'target "cloudflare-dynamic-worker" runs on a Worker',
      ],
    },
    { name: 'router on HB3', root: () => router(), target: 'hb3', paths: [] },
    { name: 'router on the local host', root: () => router(), target: 'local-mac', paths: [] },
    {
      name: 'workers-only leaf on HB3',
      root: () => tree(agent('a', '1.0.0', { cls: 'workers-only' })),
      target: 'hb3',
      paths: ['/runtimeRequirements/runtimeCapabilityClass'],
      mention: ['a@1.0.0: runtimeCapabilityClass "workers-only"'],
    },
    {
      name: 'workers-preferred leaf on the local host',
      root: () => tree(agent('a', '1.0.0')),
      target: 'local-mac',
      paths: [],
    },
    {
      name: 'local leaf on a Worker',
      root: () =>
        tree(agent('a', '1.0.0', { cls: 'local-host-required', models: [pins.ollama()], tools: [tools.stdio()] })),
      target: 'cloudflare-dynamic-worker',
      paths: ['/modelSet/0', '/runtimeRequirements/runtimeCapabilityClass', '/toolInventory/0'],
    },
    {
      name: 'three levels on a Worker names the grandchild at the child pin',
      root: () => tree(agent('e', '1.0.0'), [router()]),
      target: 'cloudflare-dynamic-worker',
      paths: ['/composition/nodes/0'],
      mention: ['splice-resolver@0.4.2'],
    },
  ];
  for (const c of table) {
    it(`${c.name}: ${c.paths.length === 0 ? 'allowed' : 'refused'}`, () => {
      const diagnostics = checkTarget(c.root(), c.target);
      expect(diagnostics.map((d) => d.path).sort()).toEqual([...c.paths].sort());
      for (const d of diagnostics) expect(d.code).toBe('runtime_capability_mismatch');
      for (const m of c.mention ?? []) expect(diagnostics.map((d) => d.message).join('\n')).toContain(m);
    });
  }

  it('suggests the targets that would work', () => {
    const [d] = checkTarget(router(), 'cloudflare-dynamic-worker');
    expect(d?.suggestion).toBe('compile with --target auto, or --target hb3 or local-mac');
  });
});

describe('collectConstraints', () => {
  it('walks the tree in pre-order and records where each requirement enters the root file', () => {
    const located = collectConstraints(tree(agent('e', '1.0.0'), [router()]));
    expect(located.map((c) => [c.node, c.element, c.via])).toEqual([
      ['e@1.0.0', '/runtimeRequirements/runtimeCapabilityClass', '/runtimeRequirements/runtimeCapabilityClass'],
      ['e@1.0.0', '/modelSet/0', '/modelSet/0'],
      ['e@1.0.0', '/toolInventory/0', '/toolInventory/0'],
      ['write-router@1.4.0', '/modelSet/0', '/composition/nodes/0'],
      ['write-router@1.4.0', '/toolInventory/0', '/composition/nodes/0'],
      ['write-router@1.4.0', '/runtimeRequirements/runtimeCapabilityClass', '/composition/nodes/0'],
      ['splice-resolver@0.4.2', '/modelSet/0', '/composition/nodes/0'],
      ['splice-resolver@0.4.2', '/toolInventory/0', '/composition/nodes/0'],
      ['splice-resolver@0.4.2', '/runtimeRequirements/runtimeCapabilityClass', '/composition/nodes/0'],
      ['fallback-writer@1.1.0', '/modelSet/0', '/composition/nodes/0'],
      ['fallback-writer@1.1.0', '/toolInventory/0', '/composition/nodes/0'],
      ['fallback-writer@1.1.0', '/runtimeRequirements/runtimeCapabilityClass', '/composition/nodes/0'],
    ]);
  });
});
