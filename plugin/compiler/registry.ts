/**
 * The registry of published definitions: immutable `slug@version` snapshots. The interface is
 * asynchronous so an HTTP (KYM) registry can implement it later; the folder registry reads
 * `<registryRoot>/<slug>/<version>.json`.
 */
import { readdir, readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve as resolvePath, sep } from 'node:path';
import { isExactSemver, sortVersions } from './semver';

export const DEFAULT_REGISTRY_ROOT = 'registry/agents';

export interface RegistryHit {
  slug: string;
  version: string;
  /** `kym://agents/<slug>@<version>` */
  ref: string;
  /** The name diagnostics and the plan use for the snapshot: never an absolute path. */
  file: string;
  format: 'json' | 'yaml';
  /** The snapshot's bytes, exactly as stored. */
  bytes: Uint8Array;
}

export interface AgentRegistry {
  /** The snapshot of exactly `slug@version`, or undefined when there is none. Rejects only on I/O failure. */
  resolve(slug: string, version: string): Promise<RegistryHit | undefined>;
  /** Every version of `slug` the registry holds, ascending. */
  versions(slug: string): Promise<string[]>;
  /** A short description for messages, e.g. `registry registry/agents`. */
  readonly description: string;
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const KYM_REF = /^kym:\/\/agents\/([^@/]+)@([^@/]+)$/;

export function kymRef(slug: string, version: string): string {
  return `kym://agents/${slug}@${version}`;
}

/** `kym://agents/<slug>@<version>` → its parts, or undefined when it is not such a reference. */
export function parseKymRef(ref: string): { slug: string; version: string } | undefined {
  const match = KYM_REF.exec(ref);
  if (!match || !SLUG.test(match[1]!) || !isExactSemver(match[2]!)) return undefined;
  return { slug: match[1]!, version: match[2]! };
}

/** Resolves a `kym://` reference through any registry. */
export async function resolveKymRef(registry: AgentRegistry, ref: string): Promise<RegistryHit | undefined> {
  const parsed = parseKymRef(ref);
  return parsed ? registry.resolve(parsed.slug, parsed.version) : undefined;
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}

export interface FolderRegistryOptions {
  /** Where snapshots live; relative paths are taken from `workspaceRoot`. Default `registry/agents`. */
  registryRoot?: string;
  workspaceRoot: string;
}

/** `<registryRoot>/<slug>/<version>.json`; a missing folder is an empty registry. */
export class FolderRegistry implements AgentRegistry {
  readonly root: string;
  readonly description: string;
  private readonly displayRoot: string;

  constructor(options: FolderRegistryOptions) {
    const configured = options.registryRoot ?? DEFAULT_REGISTRY_ROOT;
    this.root = isAbsolute(configured) ? configured : resolvePath(options.workspaceRoot, configured);
    // Shown relative to the workspace: outputs never carry absolute paths.
    this.displayRoot = toPosix(relative(options.workspaceRoot, this.root)) || '.';
    this.description = `registry ${this.displayRoot}`;
  }

  async resolve(slug: string, version: string): Promise<RegistryHit | undefined> {
    // Only well-formed names reach the file system: no `..`, no separators.
    if (!SLUG.test(slug) || !isExactSemver(version)) return undefined;
    let bytes: Uint8Array;
    try {
      bytes = await readFile(join(this.root, slug, `${version}.json`));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw new Error(`${this.description}: cannot read ${slug}@${version} (${code ?? (error as Error).message})`);
    }
    return { slug, version, ref: kymRef(slug, version), file: `${this.displayRoot}/${slug}/${version}.json`, format: 'json', bytes };
  }

  async versions(slug: string): Promise<string[]> {
    if (!SLUG.test(slug)) return [];
    let names: string[];
    try {
      names = await readdir(join(this.root, slug));
    } catch {
      return [];
    }
    return sortVersions(names.filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -'.json'.length)).filter(isExactSemver));
  }
}

/** A registry held in memory (tests, and callers that fetched snapshots themselves). */
export class MemoryRegistry implements AgentRegistry {
  readonly description = 'in-memory registry';
  private readonly snapshots = new Map<string, string>();

  /** Adds the snapshot text of `slug@version`. */
  add(slug: string, version: string, text: string): this {
    this.snapshots.set(`${slug}@${version}`, text);
    return this;
  }

  async resolve(slug: string, version: string): Promise<RegistryHit | undefined> {
    const text = this.snapshots.get(`${slug}@${version}`);
    if (text === undefined) return undefined;
    return { slug, version, ref: kymRef(slug, version), file: kymRef(slug, version), format: 'json', bytes: new TextEncoder().encode(text) };
  }

  async versions(slug: string): Promise<string[]> {
    return sortVersions([...this.snapshots.keys()].filter((k) => k.startsWith(`${slug}@`)).map((k) => k.slice(slug.length + 1)));
  }
}
