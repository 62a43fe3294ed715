// Builds the publishable package into dist/agentdef: compiled JavaScript, the JSON schemas,
// generator and executor manifests, the CLI, and a package.json without development fields.
// `npm run pack` (scripts/pack.mjs) builds and packs it into the tarball users install.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// `--out <dir>` builds elsewhere (tests build into their own folder, so parallel builds never collide).
const outFlag = process.argv.indexOf('--out');
const out = outFlag === -1 ? join(root, 'dist', 'agentdef') : resolve(process.argv[outFlag + 1]);
// `--no-check` emits without type-checking (tsc --noCheck: the same bytes, half the time). Only the
// test run's global setup uses it: e2e/typecheck.test.ts type-checks every file of the project.
const check = !process.argv.includes('--no-check');

rmSync(out, { recursive: true, force: true });
const tsc = spawnSync(
  process.execPath,
  [
    join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
    '-p',
    join(root, 'tsconfig.build.json'),
    '--outDir',
    out,
    ...(check ? [] : ['--noCheck']),
  ],
  { stdio: 'inherit' },
);
if (tsc.status !== 0) {
  console.error('build: tsc failed');
  process.exit(tsc.status ?? 1);
}

/** Folders and files that are test support, never part of the package (tsconfig.build.json excludes the same). */
const TEST_ONLY_FOLDERS = new Set(['__fixtures__', '__golden__', '__test-support__']);
const TEST_ONLY_FILE = /(\.(test|spec)\.[cm]?[jt]s|(^|[/\\])test-support\.(ts|js|d\.ts))$/;

/** Copies every file under `dir` whose name matches `keep`, preserving the layout. */
function copyMatching(dir, keep) {
  const from = join(root, dir);
  const walk = (current) => {
    for (const name of readdirSync(current)) {
      const path = join(current, name);
      if (statSync(path).isDirectory()) {
        if (name !== 'node_modules' && !TEST_ONLY_FOLDERS.has(name)) walk(path);
      } else if (keep(name) && !TEST_ONLY_FILE.test(name)) {
        const target = join(out, relative(root, path));
        mkdirSync(dirname(target), { recursive: true });
        cpSync(path, target);
      }
    }
  };
  walk(from);
}
// What users read ships too: each module's README (the Worker adapter's among them) and docs/,
// so every relative link of README.md resolves inside the installed package.
const isReadme = (name) => name === 'README.md';
// Third-party files the product reads at run time ship with their licence and provenance notes
// (plugin/definition/oasf/definitions/: the OASF definitions, Apache-2.0 with a NOTICE).
const isThirdPartyNote = (name) => name === 'SOURCES.md' || name === 'LICENSE.md' || name === 'NOTICE';
copyMatching('plugin', (name) => name.endsWith('.json') || isReadme(name) || isThirdPartyNote(name));
copyMatching('generators', (name) => name.endsWith('.json') || isReadme(name));
copyMatching('executors', (name) => name.endsWith('.json') || isReadme(name));
copyMatching('docs', (name) => name.endsWith('.md'));
// The model recordings the docs replay (docs/your-first-agent.md: `--replay node_modules/agentdef/recordings/your-first-agent`).
copyMatching('recordings', (name) => name.endsWith('.json') || isReadme(name));
for (const file of ['generators.json', 'executors.json', 'README.md', 'LICENSE'])
  cpSync(join(root, file), join(out, file));
// What compiled outputs bundle (the portable runtime, the Worker host, the host contract) ships as
// TypeScript too, renamed `.mts`: esbuild tries `.mts` before `.js`, so it bundles these ES modules
// and a Worker carries only the runtime parts it imports (the compiled `.js` files are CommonJS,
// which esbuild cannot tree-shake: 111 KiB instead of 53 for a tool-only Worker). Node and
// TypeScript never resolve an import without extension to `.mts`, so nothing else sees them.
// Every folder below the runtime (providers, telemetry, hybrid, …: a folder left out would be
// bundled as CommonJS, whole), and the targets' contracts the Worker host reads.
const shipsAsModule = (name) => name.endsWith('.ts') && !name.endsWith('.d.ts') && !TEST_ONLY_FILE.test(name);
const moduleFolders = (dir) => [
  dir,
  ...readdirSync(join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== '__test-support__')
    .flatMap((entry) => moduleFolders(`${dir}/${entry.name}`)),
];
for (const dir of [...moduleFolders('plugin/runtime'), 'plugin/hosts/worker', 'plugin/host-contract']) {
  for (const name of readdirSync(join(root, dir))) {
    if (shipsAsModule(name)) cpSync(join(root, dir, name), join(out, dir, name.replace(/\.ts$/, '.mts')));
  }
}
for (const target of readdirSync(join(root, 'plugin/targets'), { withFileTypes: true })) {
  const contract = `plugin/targets/${target.name}/contract.ts`;
  if (target.isDirectory() && existsSync(join(root, contract)))
    cpSync(join(root, contract), join(out, contract.replace(/\.ts$/, '.mts')));
}
mkdirSync(join(out, 'bin'), { recursive: true });
cpSync(join(root, 'bin', 'agentdef.cjs'), join(out, 'bin', 'agentdef.cjs'));

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const devDeps = pkg.devDependencies ?? {};
const runtimeFromDev = ['@nx/devkit', 'esbuild', 'code-block-writer', '@modelcontextprotocol/sdk', '@a2a-js/sdk'];
// What only some users need is an optional peer: npm installs none of them with agentdef, and each
// missing one is met by one message naming the package and version to install (docs/installing.md).
// - miniflare: `agentdef dev` serves Worker outputs through it (loaded when a Worker starts);
// - wrangler: `agentdef deploy` of a Worker output runs it;
// - libsql: the durable SQLite ledger and task store on a Node without node:sqlite (before 22.13);
// - pg: the PostgreSQL task store and ledger shared by replicas.
const optionalPeers = ['miniflare', 'wrangler', 'libsql', 'pg'];
/** Development-only packages the published package must never name (test oracles, test frameworks). */
const NEVER_SHIPPED = ['canonicalize', 'fast-check', 'vitest', 'zod'];
/** The format schemas (`<format>.v<major>.schema.json`), the files `./schema/*` exports. */
const publishedSchemas = readdirSync(join(root, 'plugin', 'schema'))
  .filter((name) => /^[a-z][a-z0-9-]*\.v[1-9][0-9]*\.schema\.json$/.test(name))
  .sort();
const published = {
  name: pkg.name,
  version: pkg.version,
  description: pkg.description,
  license: pkg.license,
  main: './plugin/index.js',
  types: './plugin/index.d.ts',
  // The documented API only (README "Using agentdef from a script"): the entry point, and the files
  // Nx reads by name. Every other file is internal: `agentdef/plugin/…` is not importable.
  exports: {
    '.': { types: './plugin/index.d.ts', default: './plugin/index.js' },
    './package.json': './package.json',
    './executors.json': './executors.json',
    './generators.json': './generators.json',
    // The published JSON schemas at a stable path (docs/decisions/0005-schema-location.md):
    // `agentdef/schema/agent-definition.v1.schema.json` and one per format, each with its `$id`.
    ...Object.fromEntries(publishedSchemas.map((name) => [`./schema/${name}`, `./plugin/schema/${name}`])),
  },
  bin: pkg.bin,
  generators: './generators.json',
  executors: './executors.json',
  engines: pkg.engines,
  dependencies: {
    ...pkg.dependencies,
    ...Object.fromEntries(runtimeFromDev.filter((name) => devDeps[name]).map((name) => [name, devDeps[name]])),
  },
  peerDependencies: { nx: devDeps.nx, ...Object.fromEntries(optionalPeers.map((name) => [name, `^${devDeps[name]}`])) },
  peerDependenciesMeta: Object.fromEntries(optionalPeers.map((name) => [name, { optional: true }])),
};
const named = Object.keys({ ...published.dependencies, ...published.peerDependencies });
const devOnly = named.filter((name) => NEVER_SHIPPED.includes(name));
if (devOnly.length > 0) {
  console.error(
    `build: development-only packages in the published dependencies: ${devOnly.join(', ')} (move them to devDependencies)`,
  );
  process.exit(1);
}
writeFileSync(join(out, 'package.json'), JSON.stringify(published, null, 2) + '\n');

// Fail rather than ship test support: anything the exclusions above missed stops the build.
const shipped = readdirSync(out, { recursive: true }).map((name) => String(name).split('\\').join('/'));
const testOnly = shipped.filter(
  (name) => name.split('/').some((part) => TEST_ONLY_FOLDERS.has(part)) || TEST_ONLY_FILE.test(name),
);
if (testOnly.length > 0) {
  console.error(`build: test support in the package (check tsconfig.build.json excludes):\n  ${testOnly.join('\n  ')}`);
  process.exit(1);
}
console.log(`built ${relative(root, out)}`);
