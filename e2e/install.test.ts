/**
 * Installing agentdef as the README says: `npm run pack` (scripts/pack.mjs, run for real into a
 * temp folder by the test run's global setup, e2e/support/global-setup.ts) prints the tarball and
 * the exact install line; the tarball, installed into
 * a fresh workspace, brings only dependencies whose `engines.node` admits the lowest Node version
 * agentdef declares (npm warns EBADENGINE otherwise), names no development-only package
 * (`canonicalize` is a test oracle: the runtime's jcs.ts is the one RFC 8785 implementation), and
 * ships what users read (every relative link of its Markdown resolves inside the package) and
 * nothing for tests.
 *
 * A real `npm install <tarball>` needs the registry (no network in tests), so the workspace is laid
 * out from the tarball as npm would (support/nx-workspace.ts) and resolves the dependencies from
 * the repository's node_modules, which hold the same pinned versions.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, posix } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createWorkspace, type TempWorkspace } from './support/nx-workspace';

const repoRoot = join(__dirname, '..');
// npm's own semver, as npm uses it to check `engines`.
const semver = createRequire(join(repoRoot, 'package.json'))('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
  validRange(range: string): string | null;
};

interface Manifest {
  name: string;
  version: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const readManifest = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Manifest;

let packDir: string;
let packed: { status: number | null; stdout: string; stderr: string };
let tarball: string;
let entries: string[];
let ws: TempWorkspace;

beforeAll(() => {
  const run = inject('agentdefPackRun');
  packDir = run.dir;
  packed = run;
  tarball = run.tarball;
  if (tarball === '') return;
  entries = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter((line) => line !== '' && !line.endsWith('/'))
    .map((line) => line.replace(/^package\//, ''));
  ws = createWorkspace('install', tarball);
});
afterAll(() => {
  if (ws) rmSync(dirname(ws.dir), { recursive: true, force: true });
});

/** Markdown with its fenced blocks and code spans blanked: what can hold a link (CommonMark: code spans bind first). */
function proseOf(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, '');
}
describe('npm run pack', () => {
  it('prints the tarball it packed and the exact install line', () => {
    expect(packed.status, packed.stderr).toBe(0);
    const version = readManifest(join(repoRoot, 'package.json')).version;
    expect(tarball).toBe(join(packDir, `agentdef-${version}.tgz`));
    expect(existsSync(tarball)).toBe(true);
    expect(packed.stdout).toContain(`packed ${tarball} (`);
    expect(packed.stdout).toContain('install it in an Nx workspace (Node >=');
  });

  it('is the script package.json runs as `npm run pack`', () => {
    expect(
      (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts[
        'pack'
      ],
    ).toBe('node scripts/pack.mjs');
  });
});

describe('the installed package', () => {
  const installed = () => readManifest(join(ws.dir, 'node_modules', 'agentdef', 'package.json'));

  it('names no development-only package (canonicalize stays a test oracle)', () => {
    const manifest = installed();
    const named = Object.keys({
      ...manifest.dependencies,
      ...manifest.optionalDependencies,
      ...manifest.peerDependencies,
    });
    for (const devOnly of ['canonicalize', 'fast-check', 'vitest', 'zod']) expect(named).not.toContain(devOnly);
    const requiresCanonicalize = entries.filter(
      (entry) =>
        /\.(c|m)?js$/.test(entry) &&
        /require\("canonicalize"\)|from ['"]canonicalize['"]/.test(
          readFileSync(join(ws.dir, 'node_modules', 'agentdef', entry), 'utf8'),
        ),
    );
    expect(requiresCanonicalize).toEqual([]);
  });

  it('installs only dependencies whose engines.node admits the lowest Node agentdef declares', () => {
    const manifest = installed();
    const declared = manifest.engines?.node ?? '';
    expect(semver.validRange(declared), 'engines.node is a valid range').not.toBeNull();
    const minimum = semver.minVersion(declared)!.version;
    expect(
      semver.satisfies(process.versions.node, declared),
      `this Node (${process.versions.node}) is inside ${declared}`,
    ).toBe(true);
    // What npm installs: dependencies, optional dependencies, and the peers that are not optional; transitively.
    const optionalPeers = new Set(
      Object.entries(manifest.peerDependenciesMeta ?? {}).flatMap(([name, meta]) => (meta.optional ? [name] : [])),
    );
    const requiredPeers = Object.keys(manifest.peerDependencies ?? {}).filter((name) => !optionalPeers.has(name));
    const queue: Array<{ name: string; from: string; optional: boolean }> = [
      ...Object.keys(manifest.dependencies ?? {}),
      ...requiredPeers,
    ].map((name) => ({
      name,
      from: join(ws.dir, 'node_modules', 'agentdef'),
      optional: false,
    }));
    queue.push(
      ...Object.keys(manifest.optionalDependencies ?? {}).map((name) => ({
        name,
        from: join(ws.dir, 'node_modules', 'agentdef'),
        optional: true,
      })),
    );
    const seen = new Set<string>();
    const refusing: string[] = [];
    const missing: string[] = [];
    while (queue.length > 0) {
      const { name, from, optional } = queue.shift()!;
      const file = resolveManifest(name, from);
      if (!file) {
        // Platform packages of other systems (esbuild's, nx's native binaries) are optional and absent here.
        if (!optional) missing.push(`${name} (from ${from})`);
        continue;
      }
      if (seen.has(file)) continue;
      seen.add(file);
      const dep = readManifest(file);
      const range = dep.engines?.node;
      if (range && !semver.satisfies(minimum, range))
        refusing.push(`${dep.name}@${dep.version} requires Node ${range}`);
      const dir = dirname(file);
      for (const child of Object.keys(dep.dependencies ?? {})) queue.push({ name: child, from: dir, optional });
      for (const child of Object.keys(dep.optionalDependencies ?? {}))
        queue.push({ name: child, from: dir, optional: true });
    }
    expect(seen.size).toBeGreaterThan(20);
    expect(missing).toEqual([]);
    expect(refusing, `agentdef declares Node ${declared}`).toEqual([]);
  });

  it('reads links only outside code (a pattern in a code span is not a link)', () => {
    const text = proseOf(
      'See [the guide](docs/a.md) and `[a-z](?:b)` and ``x`[c](d)`x``.\n```sh\necho [e](f)\n```\n[g](h.md)\n',
    );
    expect([...text.matchAll(/\]\(([^)\s#]+)\)/g)].map((m) => m[1])).toEqual(['docs/a.md', 'h.md']);
  });

  it('ships what users read: every relative link of its Markdown resolves inside the package', () => {
    const shipped = new Set(entries);
    const folders = new Set(
      entries.flatMap((entry) =>
        entry
          .split('/')
          .slice(0, -1)
          .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
      ),
    );
    expect(entries).toEqual(
      expect.arrayContaining([
        'README.md',
        'LICENSE',
        'plugin/targets/cloudflare-dynamic-worker/README.md',
        'docs/installing.md',
      ]),
    );
    const broken: string[] = [];
    for (const entry of entries.filter((e) => e.endsWith('.md'))) {
      const text = proseOf(readFileSync(join(ws.dir, 'node_modules', 'agentdef', entry), 'utf8'));
      for (const [, target] of text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/i.test(target!)) continue; // https:, mailto:
        const resolved = posix.normalize(posix.join(posix.dirname(entry), target!)).replace(/\/$/, '');
        if (!shipped.has(resolved) && !folders.has(resolved)) broken.push(`${entry} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('ships nothing for tests', () => {
    const testOnly = entries.filter(
      (entry) =>
        /(^|\/)(__test-support__|__fixtures__|__golden__)(\/|$)/.test(entry) ||
        /\.(test|spec)\.(d\.ts|[cm]?[jt]s)$/.test(entry) ||
        /(^|\/)test-support\.(js|d\.ts)$/.test(entry),
    );
    expect(testOnly).toEqual([]);
    // and the source tree does hold such files, so the check above is not vacuous
    expect(readdirSync(join(repoRoot, 'plugin', 'compiler')).some((name) => name.endsWith('.test.ts'))).toBe(true);
  });
});

describe("the repository's own install (npm ci)", () => {
  it('locks only packages whose engines.node admits the lowest Node agentdef declares (npm ci warns EBADENGINE for none)', () => {
    const declared = readManifest(join(repoRoot, 'package.json')).engines?.node ?? '';
    const minimum = semver.minVersion(declared)!.version;
    const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
    };
    const entries = Object.entries(lock.packages).filter(([path]) => path !== '');
    expect(entries.length).toBeGreaterThan(500);
    // npm checks `engines.node` of every package it installs, optional platform packages included.
    const refusing = entries.flatMap(([path, entry]) => {
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      return range !== undefined && !semver.satisfies(minimum, range)
        ? [`${path}@${entry.version} requires Node ${range}`]
        : [];
    });
    expect(refusing, `agentdef declares Node ${declared}`).toEqual([]);
    // The check reads what it should: canonicalize@5 (Node >= 22) would be refused.
    expect(semver.satisfies(minimum, '>=22')).toBe(false);
  });

  it('installs nothing that builds native code: no package with a gyp file or an install script that npm would run', () => {
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
      allowScripts?: Record<string, boolean>;
    };
    const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { hasInstallScript?: boolean; optional?: boolean; os?: string[]; cpu?: string[] }>;
    };
    const withScripts = Object.entries(lock.packages).flatMap(([path, entry]) =>
      entry.hasInstallScript ? [path.replace(/^.*node_modules\//, '')] : [],
    );
    // Each has a prebuilt binary in a registry package (esbuild, workerd, sharp, @parcel/watcher,
    // @swc/core) or needs no script (nx); allowScripts denies each by name, so npm runs none.
    const allowed = Object.entries(manifest.allowScripts ?? {}).filter(([, allow]) => allow !== false);
    expect(allowed).toEqual([]);
    expect([...new Set(withScripts)].filter((name) => manifest.allowScripts?.[name] !== false)).toEqual([]);
    expect(
      Object.keys(lock.packages).some((path) => /node_modules\/(better-sqlite3|node-gyp|prebuild-install)$/.test(path)),
    ).toBe(false);
  });
});

/** Where Node finds `name`'s package.json from `fromDir`: node_modules folders upwards. */
function resolveManifest(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}
