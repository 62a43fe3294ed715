/**
 * Test helpers for the compiler: definitions built from a known-valid template, and throwaway
 * workspaces under the OS temp folder. Not part of the published package.
 */
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AgentDefinition, LlmPin, ToolRef } from '../schema/generated/agent-definition.types';
import type { RuntimeCapabilityClass } from '../definition/runtime-hosts';
import type { SourceDocument } from '../definition/source-document';
import { digestOf } from './canonical-json';
import type { ResolvedNode } from './resolve';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A deterministic, well-formed ULID derived from `seed`. */
export function ulidFor(seed: string): string {
  const bytes = createHash('sha256').update(seed).digest();
  let out = '0';
  for (let i = 0; i < 25; i++) out += CROCKFORD[bytes[i]! % 32];
  return out;
}

export const pins = {
  small: (modelId = 'claude-haiku-4-5'): LlmPin => ({
    role: 'primary',
    modelId,
    modelVersion: '2025-10-01',
    providerId: 'anthropic',
    samplingParams: { temperature: 0 },
    tier: 'small',
  }),
  tuned: (modelId = 'splice-lora'): LlmPin => ({
    role: 'specialist',
    modelId,
    modelVersion: '2026-10-02',
    providerId: 'custom:acme-tuned',
    samplingParams: { temperature: 0 },
    tier: 'tuned',
    checkpointId: `ckpt:acme/${modelId}`,
  }),
  ollama: (modelId = 'llama3.1:8b'): LlmPin => ({
    role: 'primary',
    modelId,
    modelVersion: '2024-07-23',
    providerId: 'local-ollama',
    samplingParams: { temperature: 0 },
    tier: 'local',
  }),
};

export const tools = {
  skill: (id = 'fmt'): ToolRef => ({ id, name: id, version: '1.0.0', provenance: 'skill-package', risk: 'low' }),
  native: (id = 'rg'): ToolRef => ({ id, name: id, version: '1.0.0', provenance: 'native', risk: 'medium' }),
  stdio: (id = 'notes'): ToolRef => ({
    id,
    name: id,
    version: '1.0.0',
    provenance: 'mcp',
    mcpServer: `${id}-server`,
    mcpTransport: 'stdio',
    risk: 'low',
  }),
  http: (id = 'search'): ToolRef => ({
    id,
    name: id,
    version: '1.0.0',
    provenance: 'mcp',
    mcpServer: `${id}-server`,
    mcpTransport: 'http',
    risk: 'low',
  }),
};

export interface AgentOptions {
  cls?: RuntimeCapabilityClass;
  models?: LlmPin[];
  tools?: ToolRef[];
  nodes?: readonly (readonly [string, string])[];
  edges?: AgentDefinition['composition']['edges'];
  quarantine?: boolean;
  description?: string;
}

/** An agentic definition that passes the schema and the semantic rules (like examples/fallback-writer). */
export function agent(slug: string, version: string, options: AgentOptions = {}): AgentDefinition {
  const cls = options.cls ?? 'workers-preferred';
  const models = options.models ?? [pins.small()];
  const local = cls === 'local-host-required';
  const composed = (options.nodes?.length ?? 0) > 0;
  // Edges and quarantine are kept even without nodes: `tree()` adds the nodes from its children.
  const composition: AgentDefinition['composition'] = {
    kind: composed ? 'dag' : 'leaf',
    ...(composed ? { nodes: options.nodes!.map(([s, v]) => ({ slug: s, version: v })) } : {}),
    ...(options.edges ? { edges: options.edges } : {}),
    ...(options.quarantine !== undefined ? { quarantine: options.quarantine } : {}),
  };
  const needsKey = models.some((m) => m.providerId !== 'local-ollama');
  return {
    schemaVersion: 'agent-definition/v1',
    identity: {
      id: ulidFor(`${slug}#id`),
      slug,
      name: slug.replace(/-/g, ' '),
      versionSemver: version,
      versionId: ulidFor(`${slug}@${version}#version`),
      owner: { kind: 'org', id: 'acme' },
      signingKeyRef: 'keyref:acme-agents',
      kymRef: `kym://agents/${slug}@${version}`,
    },
    capabilityContract: {
      inputs: [{ kind: 'text', mediaType: 'text/plain' }],
      outputs: [{ kind: 'data', mediaType: 'application/json' }],
      skills: [
        {
          id: `${slug}.run`,
          name: `Run ${slug}`,
          description: options.description ?? `Runs ${slug}.`,
          version,
          tags: ['test'],
        },
      ],
      invariants: ['Every answer names the node that produced it.'],
    },
    modelSet: models,
    toolInventory: options.tools ?? [tools.skill()],
    composition,
    memoryContract: { refs: [] },
    telemetryContract: {
      receiptSigner: 'keyref:acme-agents',
      receiptSchemaVersion: 'receipt/v1',
      telemetryKinds: ['events'],
      agenticGate: models.length > 0 ? 'agentic' : 'tool-only',
      kymRegistrationRequired: models.length > 0,
    },
    runtimeRequirements: {
      runtimeCapabilityClass: cls,
      limits: { wallClockMs: 30000 },
      keyCustody: local ? 'session' : 'secrets-store',
      bindings:
        needsKey && !local
          ? [{ kind: 'secret-ref', name: 'ANTHROPIC_API_KEY', ref: 'secrets-store://acme/anthropic' }]
          : [],
    },
    lifecycleState: composed ? 'composed' : models.length > 0 ? 'mcp-resident' : 'tool-shipped',
    metadata: {
      description: options.description ?? `Test agent ${slug}.`,
      tags: ['test'],
      provenance: { repo: 'https://github.com/acme/agents', filePath: `agents/${slug}/agent.json` },
    },
  };
}

export function json(definition: unknown): string {
  return `${JSON.stringify(definition, null, 2)}\n`;
}

/** 1-based line and column of the first occurrence of `needle` in `text` (throws when absent). */
export function positionOf(text: string, needle: string): { line: number; column: number } {
  const offset = text.indexOf(needle);
  if (offset === -1) throw new Error(`"${needle}" not found`);
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

export interface TempWorkspace {
  root: string;
  write(path: string, contents: string | object): string;
  remove(): void;
}

/** A workspace under the OS temp folder with an `nx.json`; `files` maps relative paths to text or a definition. */
export function tempWorkspace(files: Record<string, string | object> = {}): TempWorkspace {
  const root = mkdtempSync(join(tmpdir(), 'agentdef-compiler-'));
  const write = (path: string, contents: string | object) => {
    const absolute = join(root, path);
    mkdirSync(dirname(absolute), { recursive: true });
    writeFileSync(absolute, typeof contents === 'string' ? contents : json(contents));
    return absolute;
  };
  write('nx.json', '{}\n');
  for (const [path, contents] of Object.entries(files)) write(path, contents);
  return { root, write, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** A document stand-in for trees built in memory: every pointer sits at line 1, column 1. */
export function stubDocument(file: string, value: unknown): SourceDocument {
  return { file, format: 'json', text: json(value), value, locate: () => ({ line: 1, column: 1 }) };
}

/**
 * A resolved tree built in memory (no files): the parent's composition is set to pin exactly the
 * given children, in order.
 */
export function tree(definition: AgentDefinition, children: ResolvedNode[] = [], depth = 0): ResolvedNode {
  const def: AgentDefinition = structuredClone(definition);
  if (children.length > 0) {
    def.composition = {
      ...def.composition,
      kind: 'dag',
      nodes: children.map((c) => ({ slug: c.slug, version: c.version })),
    };
  }
  const { slug, versionSemver: version } = def.identity;
  const file = `agents/${slug}/agent.json`;
  const node: ResolvedNode = {
    slug,
    version,
    key: `${slug}@${version}`,
    file,
    source: 'workspace',
    definition: def,
    document: stubDocument(file, def),
    digest: digestOf(def),
    depth,
    children: [],
  };
  const reparent = (child: ResolvedNode, d: number): ResolvedNode => ({
    ...child,
    depth: d,
    children: child.children.map((g) => reparent(g, d + 1)),
  });
  node.children = children.map((c, i) => ({ ...reparent(c, depth + 1), pinPointer: `/composition/nodes/${i}` }));
  return node;
}

/** Every entry below `dir` (links listed, not followed) with file contents: what must not change. */
export function treeSnapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, prefix: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      const info = lstatSync(path);
      if (info.isSymbolicLink()) out[`${prefix}${name}`] = '<link>';
      else if (info.isDirectory()) walk(path, `${prefix}${name}/`);
      else out[`${prefix}${name}`] = readFileSync(path, 'utf8');
    }
  };
  walk(dir, '');
  return out;
}

/**
 * Output folders no shell may let the writer replace, relative to the workspace `root`: the
 * workspace itself, a source folder, a folder that holds a stray `plan.json` beside user files, a
 * symbolic link out of the workspace (to a folder with a precious file) and a path through it.
 * Creates what they need; `outside` is the folder the link leads to (remove it afterwards).
 */
export function unsafeOutputFolders(root: string): { folders: { path: string; refusal: RegExp }[]; outside: string } {
  const outside = mkdtempSync(join(tmpdir(), 'agentdef-outside-'));
  writeFileSync(join(outside, 'precious.txt'), 'keep me');
  symlinkSync(outside, join(root, 'linked-out'));
  mkdirSync(join(root, 'infra'), { recursive: true });
  writeFileSync(join(root, 'infra', 'plan.json'), '{"terraform":true}');
  writeFileSync(join(root, 'infra', 'main.tf'), 'resource "x" "y" {}');
  return {
    outside,
    folders: [
      { path: '.', refusal: /is or contains the workspace root/ },
      { path: 'examples', refusal: /holds files agentdef did not write/ },
      { path: 'examples/write-router', refusal: /holds files agentdef did not write/ },
      { path: 'infra', refusal: /holds files agentdef did not write/ },
      { path: 'linked-out', refusal: /symbolic link/ },
      { path: 'linked-out/agent', refusal: /symbolic link on the way leads out of the workspace/ },
    ],
  };
}
