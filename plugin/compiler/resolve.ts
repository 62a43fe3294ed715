/**
 * Resolves a definition's composition: every pin `slug@version` to exactly that definition, from
 * the workspace first, then from the registry, recursively. Every child is validated in its own
 * file; unresolved pins, cycles and oversized trees are diagnostics located at the pin in the
 * parent's file. Never picks another version, never throws on bad input.
 */
import { join } from 'node:path';
import type { AgentDefinition } from '../schema/generated/agent-definition.types';
import { sortDiagnostics, type Diagnostic, type Finding } from '../definition/diagnostic';
import { createHash } from 'node:crypto';
import { loadDefinition } from '../definition/load-definition';
import { definitionFormat } from '../definition/parse-document';
import { readDefinitionSource, type WorkspaceRoots } from '../definition/read-source';
import { locateFinding, validateDefinitionSource } from '../definition/validate-definition';
import { DEFAULT_RULE_OPTIONS, type RuleOptions } from '../definition/rules/rule';
import type { SourceDocument } from '../definition/source-document';
import { digestOf } from './canonical-json';
import { type AgentRegistry, RegistryIntegrityError } from '../registry/agent-registry';
import { pinKey, sortVersions, WORKSPACE_DEFAULTS } from '../definition/workspace-definitions';
import { lookupWorkspace, type PinLookup } from './workspace-index';
import { loadDefinitionKept, validateJsonKept, type ValidatedDefinitionStore } from './validated-definition-store';

export type NodeSource = 'workspace' | 'registry';

export interface ResolvedNode {
  slug: string;
  version: string;
  /** `slug@version` */
  key: string;
  /** Workspace-relative posix path, or the registry's display name for a snapshot. Never absolute. */
  file: string;
  source: NodeSource;
  definition: AgentDefinition;
  document: SourceDocument;
  /** SHA-256 (hex) of the RFC 8785 canonical JSON of the definition. */
  digest: string;
  /** 0 for the root. */
  depth: number;
  /** Where this node is pinned in its parent's file (`/composition/nodes/<i>`); absent on the root. */
  pinPointer?: string;
  /** The resolved children, in pin order (unresolvable pins are left out and reported). */
  children: ResolvedNode[];
}

export interface ResolveOptions {
  /** The workspace's definitions (an index, or the lazy one of workspace-index-lazy.ts). */
  index: PinLookup;
  registry: AgentRegistry;
  /** Absolute; where workspace files are read from. */
  workspaceRoot: string;
  /** Deepest allowed child depth (the root is depth 0). Default {@link WORKSPACE_DEFAULTS}.maxDepth. */
  maxDepth?: number;
  /** Most nodes in the resolved tree, the root included. Default {@link WORKSPACE_DEFAULTS}.maxNodes. */
  maxNodes?: number;
  ruleOptions?: RuleOptions;
  /**
   * Validated definitions kept across calls by a long-lived host (a benchmark, a server), keyed
   * by file and content: an unchanged child is not validated twice. Absent: nothing is kept.
   */
  definitionCache?: DefinitionCache;
  /** Clean validations kept between processes (validated-definition-store.ts). */
  validatedDefinitions?: ValidatedDefinitionStore;
  /** The workspace roots of this plan's reads, each looked up once (read-source.ts); with `validatedDefinitions` only. */
  readRoots?: WorkspaceRoots;
}

export type DefinitionCache = Map<string, LoadedChild>;

/** Reads a workspace child; with a cache, reuses the validation of identical content. */
function loadWorkspaceChild(
  absolutePath: string,
  file: string,
  ruleOptions: RuleOptions | undefined,
  cache: DefinitionCache | undefined,
  store: ValidatedDefinitionStore | undefined,
  roots: WorkspaceRoots | undefined,
): LoadedChild {
  if (!cache)
    return store
      ? loadDefinitionKept(absolutePath, file, ruleOptions, store, roots)
      : loadDefinition(absolutePath, file, ruleOptions);
  const source = readDefinitionSource(absolutePath, file);
  if (source.text === undefined) return loadDefinition(absolutePath, file, ruleOptions);
  const key = `${file}\u0000${createHash('sha256').update(source.text).digest('hex')}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const format = definitionFormat(file);
  const loaded =
    format === 'json' && store
      ? validateJsonKept(source.text, file, ruleOptions ?? DEFAULT_RULE_OPTIONS, store)
      : format
        ? validateDefinitionSource(source.text, file, format, ruleOptions)
        : loadDefinition(absolutePath, file, ruleOptions);
  cache.set(key, loaded);
  return loaded;
}

export interface ResolveRoot {
  definition: AgentDefinition;
  document: SourceDocument;
  source?: NodeSource;
  /** The definition's digest, when already known (a kept validation). */
  digest?: string;
}

export interface ResolveResult {
  root: ResolvedNode;
  /** Every problem found in the tree, each located in the file it belongs to, sorted. */
  diagnostics: Diagnostic[];
  /** file → text of every definition read, for printing diagnostics. */
  sources: Map<string, string>;
  /** Nodes in the tree, the root included. */
  nodeCount: number;
}

export interface LoadedChild {
  definition?: AgentDefinition;
  document?: SourceDocument;
  diagnostics: Diagnostic[];
  ioError?: string;
  /** The definition's digest, when already known (a kept validation). */
  digest?: string;
}

type Lookup =
  | { kind: 'found'; file: string; source: NodeSource; load: () => Promise<LoadedChild> }
  | { kind: 'problem'; finding: Finding };

export async function resolveComposition(root: ResolveRoot, options: ResolveOptions): Promise<ResolveResult> {
  const maxDepth = options.maxDepth ?? WORKSPACE_DEFAULTS.maxDepth;
  const maxNodes = options.maxNodes ?? WORKSPACE_DEFAULTS.maxNodes;
  const ruleOptions = options.ruleOptions ?? DEFAULT_RULE_OPTIONS;
  const diagnostics: Diagnostic[] = [];
  const reported = new Set<string>();
  const sources = new Map<string, string>([[root.document.file, root.document.text]]);
  /** One load per file, however often it is pinned; its own diagnostics are reported once. */
  const loads = new Map<string, Promise<LoadedChild>>();
  let nodeCount = 1;
  let stopped = false;

  const report = (parent: ResolvedNode, finding: Finding) => {
    const diagnostic = locateFinding(parent.document, finding);
    const key = `${diagnostic.file}\u0000${diagnostic.path}\u0000${diagnostic.rule}\u0000${diagnostic.message}`;
    if (reported.has(key)) return;
    reported.add(key);
    diagnostics.push(diagnostic);
  };

  const lookup = async (slug: string, version: string, pinFile: string): Promise<Lookup> => {
    const pin = pinKey(slug, version);
    const inWorkspace = lookupWorkspace(options.index, slug, version);
    if (inWorkspace.length > 1) {
      return {
        kind: 'problem',
        finding: {
          rule: 'ambiguous-pin',
          path: '',
          message: `pin "${pin}" matches ${inWorkspace.length} workspace definitions: ${inWorkspace.map((e) => e.file).join(', ')}`,
          suggestion: `keep one definition of ${pin} in the workspace; give the others a new version`,
        },
      };
    }
    const entry = inWorkspace[0];
    if (entry) {
      return {
        kind: 'found',
        file: entry.file,
        source: 'workspace',
        load: async () =>
          loadWorkspaceChild(
            join(options.workspaceRoot, entry.file),
            entry.file,
            ruleOptions,
            options.definitionCache,
            options.validatedDefinitions,
            options.readRoots,
          ),
      };
    }
    let hit;
    try {
      hit = await options.registry.resolve(slug, version);
    } catch (error) {
      if (error instanceof RegistryIntegrityError) {
        // The registry answered, with a snapshot that is not what was published: tampering, not an outage.
        return {
          kind: 'problem',
          finding: {
            rule: 'registry-integrity',
            path: '',
            message: `pin "${pin}" resolves to a registry snapshot that is not the one published (recorded ${error.recordedDigest}, snapshot ${error.snapshotDigest}): ${error.message}`,
            suggestion: `restore the published snapshot of ${pin}, or publish a new version with \`agentdef publish\` and pin that`,
          },
        };
      }
      return {
        kind: 'problem',
        finding: {
          rule: 'registry-unavailable',
          path: '',
          message: `pin "${pin}" could not be looked up: ${(error as Error).message}`,
        },
      };
    }
    if (hit) {
      const snapshot = hit;
      return {
        kind: 'found',
        file: snapshot.file,
        source: 'registry',
        load: async () => validateDefinitionSource(snapshot.bytes, snapshot.file, snapshot.format, ruleOptions),
      };
    }
    return { kind: 'problem', finding: await unresolvedPin(slug, version, pinFile) };
  };

  const unresolvedPin = async (slug: string, version: string, pinFile: string): Promise<Finding> => {
    const pin = pinKey(slug, version);
    const workspace = options.index.definitionsOf(slug);
    let registryVersions: string[] = [];
    let registryNote = '';
    try {
      registryVersions = await options.registry.versions(slug);
    } catch (error) {
      registryNote = ` (the ${options.registry.description} could not be listed: ${(error as Error).message})`;
    }
    const where = new Map<string, string[]>();
    for (const e of workspace)
      where.set(e.versionSemver, [...(where.get(e.versionSemver) ?? []), `workspace ${e.file}`]);
    for (const v of registryVersions) where.set(v, [...(where.get(v) ?? []), options.registry.description]);
    // A definition with a syntax error has no readable identity: name the likely ones, so a typo in the
    // child does not read as "the child does not exist".
    const suspects = options.index.unreadableNamed(slug);
    const suspectNote =
      suspects.length > 0
        ? `; unreadable definition files that may be it: ${suspects.map((u) => `${u.file} (${u.reason})`).join(', ')}`
        : '';
    registryNote += suspectNote;
    const existing = sortVersions(where.keys());
    const listed = existing.map((v) => `${v} (${(where.get(v) ?? []).join(', ')})`).join('; ');
    const latest = existing[existing.length - 1];
    return {
      rule: 'unresolved-pin',
      path: '',
      message:
        existing.length > 0
          ? `pin "${pin}" in ${pinFile} resolves to nothing: neither the workspace nor the ${options.registry.description} has ${slug} at exactly ${version}; versions that exist: ${listed}${registryNote}`
          : `pin "${pin}" in ${pinFile} resolves to nothing: no definition of "${slug}" exists in the workspace or in the ${options.registry.description}${registryNote}`,
      suggestion:
        latest !== undefined
          ? `pin a version that exists (e.g. "${slug}@${latest}"), or add ${pin} to the workspace or the registry; pins never pick another version`
          : `add an agent.json for ${pin} to the workspace, or publish it to the registry`,
    };
  };

  const visit = async (node: ResolvedNode, path: readonly string[]): Promise<void> => {
    const composition = node.definition.composition;
    const pins = composition.kind === 'dag' ? (composition.nodes ?? []) : [];
    for (const [i, pin] of pins.entries()) {
      if (stopped) return;
      const pointer = `/composition/nodes/${i}`;
      const key = pinKey(pin.slug, pin.version);
      const chain = [...path, key];

      const cycleStart = path.indexOf(key);
      if (cycleStart !== -1) {
        report(node, {
          rule: 'composition-cycle',
          path: pointer,
          message: `composition cycle: ${chain.slice(cycleStart).join(' -> ')}`,
          suggestion: 'a definition may not pin itself, directly or through its children',
        });
        continue;
      }
      const depth = node.depth + 1;
      if (depth > maxDepth) {
        report(node, {
          rule: 'composition-too-deep',
          path: pointer,
          message: `pin "${key}" would sit at depth ${depth}, deeper than maxDepth ${maxDepth}: ${chain.join(' -> ')}`,
          suggestion: 'flatten the composition, or raise maxDepth',
        });
        continue;
      }
      if (nodeCount >= maxNodes) {
        stopped = true;
        report(node, {
          rule: 'composition-too-large',
          path: pointer,
          message: `the composition has more than maxNodes ${maxNodes} nodes; resolution stopped at pin "${key}" (${chain.join(' -> ')})`,
          suggestion: 'share fewer children across branches, or raise maxNodes',
        });
        return;
      }

      const found = await lookup(pin.slug, pin.version, node.file);
      if (found.kind === 'problem') {
        report(node, {
          ...found.finding,
          path: found.finding.rule === 'unresolved-pin' ? `${pointer}/version` : pointer,
        });
        continue;
      }
      let pending = loads.get(found.file);
      const firstLoad = pending === undefined;
      if (!pending) {
        pending = found.load();
        loads.set(found.file, pending);
      }
      const loaded = await pending;
      if (loaded.ioError !== undefined) {
        report(node, {
          rule: 'unreadable-pin',
          path: pointer,
          message: `pin "${key}" resolves to ${found.file}, which cannot be read: ${loaded.ioError}`,
        });
        continue;
      }
      if (firstLoad) {
        diagnostics.push(...loaded.diagnostics);
        if (loaded.document) sources.set(found.file, loaded.document.text);
      }
      const errors = loaded.diagnostics.filter((d) => d.severity === 'error').length;
      if (errors > 0) {
        report(node, {
          rule: 'invalid-child',
          path: pointer,
          message: `pin "${key}" resolves to ${found.file}, which has ${errors} error${errors === 1 ? '' : 's'} of its own (reported in that file)`,
        });
      }
      if (!loaded.definition || !loaded.document) continue;
      const identity = loaded.definition.identity;
      if (identity.slug !== pin.slug || identity.versionSemver !== pin.version) {
        report(node, {
          rule: 'pin-identity-mismatch',
          path: pointer,
          message: `pin "${key}" resolves to ${found.file}, but that file defines ${pinKey(identity.slug, identity.versionSemver)}`,
          suggestion:
            found.source === 'registry'
              ? 'registry snapshots are immutable: republish the snapshot under its own slug and version'
              : `fix identity in ${found.file}`,
        });
        continue;
      }
      nodeCount++;
      const child: ResolvedNode = {
        slug: pin.slug,
        version: pin.version,
        key,
        file: found.file,
        source: found.source,
        definition: loaded.definition,
        document: loaded.document,
        digest: loaded.digest ?? digestOf(loaded.definition),
        depth,
        pinPointer: pointer,
        children: [],
      };
      node.children.push(child);
      await visit(child, chain);
    }
  };

  const identity = root.definition.identity;
  const rootNode: ResolvedNode = {
    slug: identity.slug,
    version: identity.versionSemver,
    key: pinKey(identity.slug, identity.versionSemver),
    file: root.document.file,
    source: root.source ?? 'workspace',
    definition: root.definition,
    document: root.document,
    digest: root.digest ?? digestOf(root.definition),
    depth: 0,
    children: [],
  };
  await visit(rootNode, [rootNode.key]);
  return { root: rootNode, diagnostics: sortDiagnostics(diagnostics), sources, nodeCount };
}

/** Every node of the tree in pre-order (parents before children, children in pin order). */
export function walkTree(root: ResolvedNode): ResolvedNode[] {
  const out: ResolvedNode[] = [];
  const go = (node: ResolvedNode) => {
    out.push(node);
    node.children.forEach(go);
  };
  go(root);
  return out;
}
