/**
 * The registry of published definitions: immutable `slug@version` snapshots. The interface is
 * asynchronous so an HTTP (KYM) registry can implement it later; the folder registry reads the
 * layout of plugin/definition/workspace-definitions.ts (`<registryRoot>/<slug>/<version>.json`).
 * A snapshot is read only when it is a regular file inside the registry, at most as large as a
 * workspace definition (plugin/definition/read-source.ts): a link to `/dev/zero` or to a file
 * outside the registry is refused, and no message quotes what such a link points at.
 * A snapshot is then checked against the digest the registry index (registry-index.ts) recorded
 * when it was published: an edited snapshot, or one the index does not list, is refused with a
 * {@link RegistryIntegrityError} naming both digests, which fails the plan at the pin.
 */
import { readdir, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve as resolvePath, sep } from 'node:path';
import {
  isExactSemver,
  isSlug,
  kymRef,
  registrySlugPath,
  registrySnapshotPath,
  registrySnapshotVersion,
  sortVersions,
  WORKSPACE_DEFAULTS,
} from '../definition/workspace-definitions';
import { findIndexEntry, readRegistryIndex, showDigest, snapshotSha256 } from './registry-index';
import { REGISTRY_INDEX_FILE } from './registry-layout';
import { readStoredSnapshot } from './version-files';

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
  /**
   * The snapshot of exactly `slug@version`, or undefined when there is none. Rejects on I/O
   * failure, and (a {@link RegistryIntegrityError}) when the snapshot is not the one published.
   */
  resolve(slug: string, version: string): Promise<RegistryHit | undefined>;
  /** Every version of `slug` the registry holds, ascending. */
  versions(slug: string): Promise<string[]>;
  /** A short description for messages, e.g. `registry registry/agents`. */
  readonly description: string;
}

const KYM_REF = /^kym:\/\/agents\/([^@/]+)@([^@/]+)$/;

/** `kym://agents/<slug>@<version>` → its parts, or undefined when it is not such a reference. */
export function parseKymRef(ref: string): { slug: string; version: string } | undefined {
  const match = KYM_REF.exec(ref);
  if (!match || !isSlug(match[1]!) || !isExactSemver(match[2]!)) return undefined;
  return { slug: match[1]!, version: match[2]! };
}

/** Resolves a `kym://` reference through any registry. */
export async function resolveKymRef(registry: AgentRegistry, ref: string): Promise<RegistryHit | undefined> {
  const parsed = parseKymRef(ref);
  return parsed ? registry.resolve(parsed.slug, parsed.version) : undefined;
}

/** A snapshot that is not what was published: edited after publishing, or never recorded in the index. */
export class RegistryIntegrityError extends Error {
  override readonly name = 'RegistryIntegrityError';
  /** The digest the index recorded at publish (`sha256:<hex>`); `none` when it records none, `unknown` when the index is unreadable. */
  readonly recordedDigest: string;
  /** The digest of the snapshot's bytes as they are now (`sha256:<hex>`). */
  readonly snapshotDigest: string;

  constructor(message: string, digests: { recorded: string; snapshot: string }) {
    super(message);
    this.recordedDigest = digests.recorded;
    this.snapshotDigest = digests.snapshot;
  }
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}

export interface FolderRegistryOptions {
  /** Where snapshots live; relative paths are taken from `workspaceRoot`. Default {@link WORKSPACE_DEFAULTS}.registryRoot. */
  registryRoot?: string;
  workspaceRoot: string;
}

/** Snapshots in a folder ({@link registrySnapshotPath}); a missing folder is an empty registry. */
export class FolderRegistry implements AgentRegistry {
  readonly root: string;
  readonly description: string;
  private readonly displayRoot: string;

  constructor(options: FolderRegistryOptions) {
    const configured = options.registryRoot ?? WORKSPACE_DEFAULTS.registryRoot;
    this.root = isAbsolute(configured) ? configured : resolvePath(options.workspaceRoot, configured);
    // Shown relative to the workspace: outputs never carry absolute paths.
    this.displayRoot = toPosix(relative(options.workspaceRoot, this.root)) || '.';
    this.description = `registry ${this.displayRoot}`;
  }

  async resolve(slug: string, version: string): Promise<RegistryHit | undefined> {
    // Only well-formed names reach the file system: no `..`, no separators.
    if (!isSlug(slug) || !isExactSemver(version)) return undefined;
    const { file, read } = readStoredSnapshot(this.root, this.displayRoot, slug, version);
    if (read.missing) return undefined;
    if (read.bytes === undefined) {
      const reason =
        read.ioError?.slice(`cannot read ${file}: `.length) ?? read.diagnostics[0]?.message ?? 'unreadable';
      throw new Error(`${this.description}: cannot read ${slug}@${version} (${reason})`);
    }
    this.checkIntegrity(slug, version, file, read.bytes);
    return { slug, version, ref: kymRef(slug, version), file, format: 'json', bytes: read.bytes };
  }

  /** Throws a {@link RegistryIntegrityError} unless the index records exactly these bytes for `slug@version`. */
  private checkIntegrity(slug: string, version: string, file: string, bytes: Uint8Array): void {
    const actual = showDigest(snapshotSha256(bytes));
    const indexFile = `${this.displayRoot}/${REGISTRY_INDEX_FILE}`;
    const index = readRegistryIndex(this.root, this.displayRoot);
    if (!index.ok)
      throw new RegistryIntegrityError(
        `${this.description}: ${slug}@${version} cannot be checked (${index.problem}); its bytes are ${actual}`,
        { recorded: 'unknown', snapshot: actual },
      );
    const entry = findIndexEntry(index.index, slug, version);
    if (entry === undefined) {
      throw new RegistryIntegrityError(
        `${this.description}: ${file} is not recorded in ${indexFile}${index.missing ? ' (there is no index)' : ''}: recorded digest none, snapshot digest ${actual}; publish it with \`agentdef publish\``,
        { recorded: 'none', snapshot: actual },
      );
    }
    const recorded = showDigest(entry.sha256);
    if (recorded !== actual) {
      throw new RegistryIntegrityError(
        `${this.description}: ${file} was changed after it was published: ${indexFile} records ${recorded}, the snapshot is ${actual}`,
        { recorded, snapshot: actual },
      );
    }
  }

  async versions(slug: string): Promise<string[]> {
    if (!isSlug(slug)) return [];
    let names: string[];
    try {
      const folder = join(registrySlugPath(this.root, slug));
      // A slug folder linked out of the registry lists nothing: its names are not this registry's.
      const [realRoot, realFolder] = await Promise.all([realpath(this.root), realpath(folder)]);
      if (realFolder !== join(realRoot, slug)) return [];
      names = await readdir(folder);
    } catch {
      return [];
    }
    return sortVersions(names.map(registrySnapshotVersion).filter((v): v is string => v !== undefined));
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
    return {
      slug,
      version,
      ref: kymRef(slug, version),
      file: kymRef(slug, version),
      format: 'json',
      bytes: new TextEncoder().encode(text),
    };
  }

  async versions(slug: string): Promise<string[]> {
    return sortVersions(
      [...this.snapshots.keys()].filter((k) => k.startsWith(`${slug}@`)).map((k) => k.slice(slug.length + 1)),
    );
  }
}
