/**
 * Test helpers for graph inference: real temporary workspaces on disk, definitions to put in
 * them, and the contexts Nx hands to `createNodes` and `createDependencies`.
 */
import {
  hashArray,
  type CreateDependenciesContext,
  type CreateNodesContext,
  type CreateNodesResult,
  type FileData,
  type ProjectConfiguration,
} from '@nx/devkit';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';

export const REPO_ROOT = join(__dirname, '..', '..');

export interface DefinitionSpec {
  slug: string;
  version?: string;
  pins?: Array<`${string}@${string}`>;
  runtime?: string;
  lifecycle?: string;
  /** `identity.id`; by default one derived from the slug, so distinct agents never share one. */
  id?: string;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A well-formed ULID that is a pure function of `seed` (a fixed time part, a hashed random part). */
export function ulidFor(seed: string): string {
  const digest = createHash('sha256').update(seed).digest();
  let random = '';
  for (let i = 0; i < 16; i++) random += CROCKFORD[digest[i]! % 32];
  return `01JF3Z8Q2M${random}`;
}

/** A schema-valid definition (a tool, or a composed agent when it pins children). */
export function definition(spec: DefinitionSpec): Record<string, unknown> {
  const version = spec.version ?? '1.0.0';
  const pins = (spec.pins ?? []).map((pin) => {
    const [slug, pinVersion] = pin.split('@') as [string, string];
    return { slug, version: pinVersion };
  });
  const composed = pins.length > 0;
  return {
    schemaVersion: 'agent-definition/v1',
    identity: {
      id: spec.id ?? ulidFor(spec.slug),
      slug: spec.slug,
      name: spec.slug,
      versionSemver: version,
      versionId: '01JF3Z9A4C6E8G0J2K4M6P8R0T',
      owner: { kind: 'org', id: 'acme' },
      signingKeyRef: 'keyref:acme',
      ...(composed ? { kymRef: `kym://agents/${spec.slug}@${version}` } : {}),
    },
    capabilityContract: {
      inputs: [{ kind: 'text', mediaType: 'text/plain' }],
      outputs: [{ kind: 'text', mediaType: 'text/plain' }],
      skills: [{ id: 'run', name: 'Run', description: 'Runs.', version, tags: ['run'] }],
      invariants: [],
    },
    modelSet: composed
      ? [
          {
            role: 'router',
            modelId: 'gpt-4o-mini',
            modelVersion: '2024-07-18',
            providerId: 'openai',
            samplingParams: {},
            tier: 'small',
          },
        ]
      : [],
    toolInventory: [],
    composition: composed ? { kind: 'dag', nodes: pins, edges: [] } : { kind: 'leaf' },
    memoryContract: { refs: [] },
    telemetryContract: {
      receiptSigner: 'keyref:acme',
      receiptSchemaVersion: 'receipt/v1',
      telemetryKinds: ['events'],
      agenticGate: composed ? 'agentic' : 'tool-only',
      kymRegistrationRequired: composed,
    },
    runtimeRequirements: {
      runtimeCapabilityClass: spec.runtime ?? 'workers-preferred',
      limits: {},
      keyCustody: 'session',
      bindings: [],
    },
    lifecycleState: spec.lifecycle ?? (composed ? 'composed' : 'tool-shipped'),
    metadata: {
      description: spec.slug,
      tags: [],
      provenance: { repo: 'https://example.invalid/acme', filePath: `${spec.slug}/agent.json` },
    },
  };
}

export function definitionJson(spec: DefinitionSpec): string {
  return `${JSON.stringify(definition(spec), null, 2)}\n`;
}

export interface TempWorkspace {
  root: string;
  write(file: string, text: string): void;
  read(file: string): string;
  remove(): void;
  /** Every file below the root (workspace-relative, posix), minus `.nx`. */
  files(): string[];
}

/** A folder under the OS temp dir holding `files` (workspace-relative path → text). */
export function tempWorkspace(files: Record<string, string> = {}): TempWorkspace {
  const root = mkdtempSync(join(tmpdir(), 'agentdef-graph-'));
  const ws: TempWorkspace = {
    root,
    write(file, text) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), text);
    },
    read: (file) => readFileSync(join(root, file), 'utf8'),
    remove: () => rmSync(root, { recursive: true, force: true }),
    files() {
      const out: string[] = [];
      const walk = (dir: string) => {
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
          const path = join(dir, entry.name);
          if (entry.isDirectory()) {
            if (entry.name !== '.nx' && entry.name !== 'node_modules') walk(path);
          } else out.push(relative(root, path).split(sep).join('/'));
        }
      };
      walk(root);
      return out.sort();
    },
  };
  for (const [file, text] of Object.entries(files)) ws.write(file, text);
  return ws;
}

export function nodesContext(root: string): CreateNodesContext {
  return { nxJsonConfiguration: {}, workspaceRoot: root };
}

/**
 * The context Nx passes to `createDependencies`: projects keyed by name (as Nx merges them from
 * the createNodes results) and a file map that assigns each file to its innermost project.
 */
export function dependenciesContext(
  ws: TempWorkspace,
  results: ReadonlyArray<readonly [string, CreateNodesResult]>,
): CreateDependenciesContext {
  const projects: Record<string, ProjectConfiguration> = {};
  for (const [, result] of results) {
    for (const [root, project] of Object.entries(result.projects ?? {})) {
      const name = project.name ?? root;
      projects[name] = { ...project, root, name } as ProjectConfiguration;
    }
  }
  const roots = Object.values(projects)
    .map((p) => p.root)
    .sort((a, b) => b.length - a.length);
  const projectFileMap: Record<string, FileData[]> = {};
  const nonProjectFiles: FileData[] = [];
  for (const file of ws.files()) {
    const data = { file, hash: hashArray([ws.read(file)]) };
    const root = roots.find((r) => r === '.' || file.startsWith(`${r}/`));
    const owner = root === undefined ? undefined : Object.values(projects).find((p) => p.root === root)?.name;
    if (owner === undefined) nonProjectFiles.push(data);
    else (projectFileMap[owner] ??= []).push(data);
  }
  const fileMap = { projectFileMap, nonProjectFiles };
  return {
    projects,
    externalNodes: {},
    nxJsonConfiguration: {},
    fileMap,
    filesToProcess: fileMap,
    workspaceRoot: ws.root,
  };
}
