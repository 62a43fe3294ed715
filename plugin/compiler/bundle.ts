/**
 * The one esbuild module: the bundler port (bundler.ts) on esbuild, in memory.
 *
 * `createEsbuildBundler` serves the port. It alone knows where agentdef's own modules are on disk
 * (beside this file, in the sources and in the installed package alike) and maps `agentdef:*`
 * specifiers to them; the workspace's modules resolve from the workspace root. A request marked
 * `reusable` (it reads agentdef's own modules only, like the Worker loader) is bundled once per
 * bundler; every other request is bundled afresh, since the workspace's files may change between
 * two compiles of a long-lived caller. Nothing is cached in module state.
 *
 * `bundleModule` is the engine underneath: an entry module's source (and any other
 * generated modules) in, one bundled module, its source map and its size out. Nothing is written.
 *
 * Generated modules live in a virtual folder (`virtualRoot`); imports between them are relative
 * (`./agents/x`). Everything else resolves on disk from `resolveDir`, except what `aliases` maps
 * (a specifier, or a `prefix/` for a whole family, to an absolute path) and what `textModules`
 * supplies (a specifier whose default export is a string, e.g. another bundle's code).
 *
 * Deterministic: the same inputs give the same bytes. Source map `sources` are made relative to
 * `sourceRoot` (posix), so no absolute path of the machine that compiled ever lands in the output.
 */
import type { BuildContext, BuildOptions, BuildResult, Loader, Plugin } from 'esbuild';
import { realpathSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import {
  AGENTDEF_MODULES,
  describeFailure,
  refusedImport,
  type Bundler,
  type BundleFailure,
  type BundleRequest,
  type BundleResult,
} from './bundler';

export interface BundleInput {
  /** The entry module: its virtual path (posix, below `virtualRoot`) and its source. */
  entry: { path: string; contents: string };
  /** Other generated modules by virtual path (posix, below `virtualRoot`). */
  files?: Readonly<Record<string, string>>;
  /** The virtual folder generated modules live in, as it should appear in the source map (e.g. `src`). */
  virtualRoot?: string;
  /** Absolute folder that imports of on-disk modules (packages, `./x` from disk files) resolve from. */
  resolveDir: string;
  platform: 'neutral' | 'node' | 'browser';
  format?: 'esm' | 'cjs';
  /** Specifiers left as imports (`cloudflare:*`, `node:*`, `./host-plan.json`); `*` wildcards allowed as esbuild takes them. */
  externals?: readonly string[];
  /**
   * Specifier → absolute path. A key ending in `/` maps a family: `agentdef:workspace/` +
   * `tools/x.ts` → `<path>/tools/x.ts`. A path without extension is resolved like an import.
   */
  aliases?: Readonly<Record<string, string>>;
  /** Specifier → text: `import text from '<specifier>'` gives the string. */
  textModules?: Readonly<Record<string, string>>;
  /** `true`: full minification; `syntax`: whitespace and syntax only. */
  minify?: boolean | 'syntax';
  /** Code put before the bundle. */
  banner?: string;
  /** License comments at the end of the file (default) or none. */
  legalComments?: 'eof' | 'none';
  /** Emit a source map beside the code (default true). */
  sourcemap?: boolean;
  /** The output file's name, for the map's `file` and the `sourceMappingURL` comment. */
  outFile: string;
  /**
   * How the map names sources on disk: the first root containing a file names it `<prefix><path
   * inside the root>` (posix); a file under none is named relative to `resolveDir`. Default: one
   * root, `resolveDir`, no prefix.
   */
  sourceRoots?: readonly { dir: string; prefix: string }[];
  /** esbuild's working folder: unminified output names each module by its path relative to it (default `resolveDir`). */
  workingDir?: string;
  target?: string;
  /** Package.json `exports` conditions to prefer (e.g. `workerd`, `worker`). */
  conditions?: readonly string[];
  /** Compile-time constants, as esbuild's `define`. */
  define?: Readonly<Record<string, string>>;
  /**
   * Imports refused in on-disk modules outside the folders of `except`: the reason for a
   * specifier, given whether the importer is a module of `dir` (outside its `node_modules`) or a
   * package, or undefined when it may be imported. The failure is located at the import.
   */
  refuse?: {
    dir: string;
    except?: readonly string[];
    reason: (specifier: string, importer: 'workspace' | 'package') => string | undefined;
  };
  /**
   * `false`: no `import()` is left in the output. Imports of bundled modules become module
   * initialisations; a computed specifier becomes a `require` that fails where there is none (a
   * Worker), so code cannot reach a runtime module (`cloudflare:sockets`) the refusals would stop.
   */
  dynamicImport?: boolean;
}

export interface BundleOutput {
  code: string;
  /** The source map (JSON text); absent when `sourcemap` is false. */
  map?: string;
  /** UTF-8 size of `code` in bytes. */
  bytes: number;
}

/** esbuild's failures, located by workspace-relative (or `agentdef/plugin/…`) file names only. */
export class BundleError extends Error {
  readonly errors: string[];
  constructor(readonly failures: BundleFailure[]) {
    const errors = failures.map(describeFailure);
    super(`bundling failed:\n${errors.join('\n')}`);
    this.name = 'BundleError';
    this.errors = errors;
  }
}

const VIRTUAL = 'agentdef-virtual';
const TEXT = 'agentdef-text';

function loaderFor(path: string): Loader {
  if (path.endsWith('.ts') || path.endsWith('.mts') || path.endsWith('.cts')) return 'ts';
  if (path.endsWith('.tsx')) return 'tsx';
  if (path.endsWith('.json')) return 'json';
  return 'js';
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

const toPosix = (path: string) => path.split(sep).join('/');

/** The extensions esbuild tries, in order, on an import without one. */
const RESOLVE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '.json'] as const;

/** `./agents/x` from `src/index.ts` → `src/agents/x.ts` when that module exists. */
function resolveVirtual(importer: string, specifier: string, files: ReadonlyMap<string, string>): string | undefined {
  const base = posix.normalize(posix.join(posix.dirname(importer), specifier));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}.js`, `${base}/index.ts`, `${base}/index.js`])
    if (files.has(candidate)) return candidate;
  return undefined;
}

function aliasTarget(specifier: string, aliases: Readonly<Record<string, string>>): string | undefined {
  if (aliases[specifier] !== undefined && !specifier.endsWith('/')) return aliases[specifier];
  let best: string | undefined;
  for (const key of Object.keys(aliases))
    if (key.endsWith('/') && specifier.startsWith(key) && (best === undefined || key.length > best.length)) best = key;
  if (best === undefined) return undefined;
  const rest = specifier.slice(best.length);
  if (rest.split('/').includes('..')) return undefined;
  return join(aliases[best]!, ...rest.split('/'));
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Resolution for generated modules, aliases and text modules. Filters are narrow on purpose:
 * every match is a round trip into JavaScript, so imports between on-disk modules never hit it.
 */
function virtualPlugin(input: BundleInput, current: () => BuildState): Plugin {
  const aliases = input.aliases ?? {};
  const texts = () => current().input.textModules ?? {};
  const external = (path: string) => input.externals?.some((pattern) => matchesExternal(pattern, path)) ?? false;
  return {
    name: 'agentdef-virtual-modules',
    setup(b) {
      b.onResolve({ filter: new RegExp(`^${escapeRegExp(input.entry.path)}$`) }, (args) =>
        args.kind === 'entry-point' ? { path: input.entry.path, namespace: VIRTUAL } : undefined,
      );

      const specials = [
        ...Object.keys(input.textModules ?? {}).map((k) => `^${escapeRegExp(k)}$`),
        ...Object.keys(aliases).map((k) => (k.endsWith('/') ? `^${escapeRegExp(k)}` : `^${escapeRegExp(k)}$`)),
      ];
      if (specials.length > 0) {
        b.onResolve({ filter: new RegExp(specials.join('|')) }, async (args) => {
          if (Object.hasOwn(texts(), args.path)) return { path: args.path, namespace: TEXT };
          const aliased = aliasTarget(args.path, aliases);
          if (aliased === undefined) return undefined;
          if (isFile(aliased)) return { path: aliased };
          // No extension: the first of esbuild's extensions that names a file, as esbuild's resolver names it (its real path), without a round trip.
          const withExtension = RESOLVE_EXTENSIONS.map((extension) => `${aliased}${extension}`).find(isFile);
          if (withExtension !== undefined) return { path: realPath(withExtension) };
          // Anything else (a folder, a package): let esbuild resolve it like a relative import from its folder.
          const resolved = await b.resolve(`./${toPosix(relative(input.resolveDir, aliased))}`, {
            kind: args.kind,
            resolveDir: input.resolveDir,
          });
          return resolved.errors.length > 0 ? { errors: resolved.errors } : { path: resolved.path };
        });
      }

      b.onResolve({ filter: /.*/, namespace: VIRTUAL }, async (args) => {
        if (external(args.path)) return { path: args.path, external: true };
        if (args.path.startsWith('./') || args.path.startsWith('../')) {
          const target = resolveVirtual(args.importer, args.path, current().files);
          if (target !== undefined) return { path: target, namespace: VIRTUAL };
          return { errors: [{ text: `cannot resolve ${args.path} from the generated module ${args.importer}` }] };
        }
        // Bare specifiers of generated modules resolve from resolveDir, as if they lived there.
        const resolved = await b.resolve(args.path, { kind: args.kind, resolveDir: input.resolveDir });
        return resolved.errors.length > 0 ? { errors: resolved.errors } : resolved;
      });
      b.onLoad({ filter: /.*/, namespace: VIRTUAL }, (args) => ({
        contents: current().files.get(args.path)!,
        loader: loaderFor(args.path),
        resolveDir: input.resolveDir,
      }));
      b.onLoad({ filter: /.*/, namespace: TEXT }, (args) => ({ contents: texts()[args.path]!, loader: 'text' }));
    },
  };
}

/** The specifiers any `refusedImport` rule may name: the filter of the plugin that applies them. */
const REFUSABLE = /^(?:cloudflare:.*|(?:node:)?(?:child_process|worker_threads|cluster))$/;

/** Refuses the imports `input.refuse` names in on-disk modules (agentdef's own, in `except`, and the generated ones may import them). */
function refusePlugin(refuse: NonNullable<BundleInput['refuse']>): Plugin {
  return {
    name: 'agentdef-refused-imports',
    setup(b) {
      b.onResolve({ filter: REFUSABLE }, (args) => {
        if (args.namespace !== 'file' || !isAbsolute(args.importer)) return undefined;
        if (refuse.except?.some((dir) => inside(dir, args.importer) !== undefined)) return undefined;
        const rel = inside(refuse.dir, args.importer);
        const importer = rel !== undefined && !rel.split('/').includes('node_modules') ? 'workspace' : 'package';
        const reason = refuse.reason(args.path, importer);
        const name = rel ?? toPosix(relative(refuse.dir, args.importer));
        return reason === undefined
          ? undefined
          : { errors: [{ text: `${name} may not import ${args.path}: ${reason}` }] };
      });
    },
  };
}

function matchesExternal(pattern: string, path: string): boolean {
  if (!pattern.includes('*')) return pattern === path;
  const [head, tail] = pattern.split('*', 2) as [string, string];
  return path.startsWith(head) && path.endsWith(tail) && path.length >= head.length + tail.length;
}

function inside(dir: string, path: string): string | undefined {
  const rel = relative(dir, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? toPosix(rel) : undefined;
}

/** The name a source file gets in the map (see `sourceRoots`). */
export function sourceName(absolute: string, input: Pick<BundleInput, 'sourceRoots' | 'resolveDir'>): string {
  for (const root of input.sourceRoots ?? [{ dir: input.resolveDir, prefix: '' }]) {
    const rel = inside(root.dir, absolute);
    if (rel !== undefined) return `${root.prefix}${rel}`;
  }
  return toPosix(relative(input.resolveDir, absolute));
}

/** Map `sources` (esbuild writes them relative to the output file) through `sourceName`; virtual modules under `virtualRoot`. */
function relativeSources(mapText: string, input: BundleInput, outDirAbs: string): string {
  const map = JSON.parse(mapText) as { sources: string[]; file?: string; sourceRoot?: string };
  map.sources = map.sources.map((source) => {
    if (source.startsWith(`${VIRTUAL}:`)) return posix.join(input.virtualRoot ?? '', source.slice(VIRTUAL.length + 1));
    if (source.startsWith(`${TEXT}:`)) return source.slice(TEXT.length + 1);
    return sourceName(isAbsolute(source) ? source : join(outDirAbs, source), input);
  });
  map.file = input.outFile;
  delete map.sourceRoot;
  return JSON.stringify(map);
}

/** What one build bundles: the request's input and its generated modules by virtual path. */
interface BuildState {
  input: BundleInput;
  files: ReadonlyMap<string, string>;
}

function stateOf(input: BundleInput): BuildState {
  return { input, files: new Map([[input.entry.path, input.entry.contents], ...Object.entries(input.files ?? {})]) };
}

/** A fake output location inside resolveDir: esbuild needs one to name the map's sources. */
const outDirOf = (input: BundleInput) => join(input.resolveDir, '.agentdef-bundle');

/** esbuild's options for `input`; the plugins read the generated modules (and text modules) from `current()`. */
function buildOptions(input: BundleInput, current: () => BuildState): BuildOptions & { write: false } {
  return {
    entryPoints: [input.entry.path],
    bundle: true,
    write: false,
    outfile: join(outDirOf(input), input.outFile),
    format: input.format ?? 'esm',
    platform: input.platform,
    target: input.target ?? 'es2022',
    ...(input.minify === 'syntax' ? { minifyWhitespace: true, minifySyntax: true } : { minify: input.minify ?? false }),
    treeShaking: true,
    sourcemap: (input.sourcemap ?? true) ? 'linked' : false,
    sourcesContent: true,
    legalComments: input.legalComments ?? 'eof',
    ...(input.banner !== undefined ? { banner: { js: input.banner } } : {}),
    charset: 'utf8',
    logLevel: 'silent',
    external: [...(input.externals ?? [])],
    ...(input.conditions ? { conditions: [...input.conditions] } : {}),
    ...(input.define ? { define: { ...input.define } } : {}),
    ...(input.dynamicImport === false ? { supported: { 'dynamic-import': false } } : {}),
    ...(input.platform === 'node' ? {} : { mainFields: ['browser', 'module', 'main'] }),
    resolveExtensions: [...RESOLVE_EXTENSIONS],
    plugins: [...(input.refuse ? [refusePlugin(input.refuse)] : []), virtualPlugin(input, current)],
    absWorkingDir: input.workingDir ?? input.resolveDir,
  };
}

/** esbuild's rejection as a BundleError located by workspace-relative names (anything else is rethrown). */
function bundleErrorOf(error: unknown, input: BundleInput): never {
  const messages = (
    error as { errors?: { text: string; location?: { file: string; line: number; column: number } | null }[] }
  ).errors;
  if (!messages) throw error;
  const where = (file: string) => {
    if (file.startsWith(`${VIRTUAL}:`)) return posix.join(input.virtualRoot ?? '', file.slice(VIRTUAL.length + 1));
    // esbuild names files relative to its working folder (the plugin's own, for tools): resolved
    // from there, a workspace file gets its workspace path instead of a climb out of node_modules.
    if (isAbsolute(file)) return sourceName(file, input);
    return file.includes(':') ? file : sourceName(resolve(input.workingDir ?? input.resolveDir, file), input);
  };
  throw new BundleError(
    messages.map((m) =>
      m.location
        ? { text: m.text, file: where(m.location.file), line: m.location.line, column: m.location.column }
        : { text: m.text },
    ),
  );
}

/** The code (and map) of a build's output files. */
function outputOf(result: BuildResult, input: BundleInput): BundleOutput {
  const outputs = result.outputFiles ?? [];
  const codeFile = outputs.find((f) => f.path.endsWith(input.outFile));
  if (!codeFile) throw new BundleError([{ text: 'esbuild produced no output' }]);
  let code = codeFile.text;
  let map: string | undefined;
  if (input.sourcemap ?? true) {
    const mapFile = outputs.find((f) => f.path.endsWith(`${input.outFile}.map`));
    if (mapFile) map = relativeSources(mapFile.text, input, outDirOf(input));
  } else {
    code = code.replace(/\n\/\/# sourceMappingURL=[^\n]*\n?$/, '\n');
  }
  return { code, ...(map !== undefined ? { map } : {}), bytes: Buffer.byteLength(code, 'utf8') };
}

/** Loaded on first use: validate and plan never load esbuild. */
const esbuild = () => require('esbuild') as typeof import('esbuild');

export async function bundleModule(input: BundleInput): Promise<BundleOutput> {
  const state = stateOf(input);
  const result = await esbuild()
    .build(buildOptions(input, () => state))
    .catch((error: unknown) => bundleErrorOf(error, input));
  return outputOf(result, input);
}

/** One esbuild context kept for the inputs of one key; its rebuilds run one after another. */
interface KeptContext {
  context: Promise<BuildContext<BuildOptions & { write: false }>>;
  /** The input being built; the plugins serve its generated and text modules. */
  state: BuildState;
  /** The last rebuild queued (settled, never rejected). */
  queue: Promise<unknown>;
}

/**
 * esbuild contexts kept by a key, at most `limit` (the least recently used is disposed): a
 * rebuild re-reads every file on disk and re-parses only what changed, so its output is the
 * fresh build's, byte for byte, while agentdef's runtime (the bulk of every bundle) is parsed
 * once. Each kept context holds esbuild's process open until `dispose`.
 */
export class BundleContexts {
  private readonly kept = new Map<string, KeptContext>();
  private disposed = false;

  constructor(private readonly limit = 4) {}

  /** The contexts kept now (never more than the limit). */
  get count(): number {
    return this.kept.size;
  }

  /** Bundles `input` in the context kept for `key` (made on first use); after `dispose`, as `bundleModule`. */
  bundle(key: string, input: BundleInput): Promise<BundleOutput> {
    if (this.disposed) return bundleModule(input);
    let kept = this.kept.get(key);
    if (kept) this.kept.delete(key);
    else {
      const made: KeptContext = { state: stateOf(input), queue: Promise.resolve(), context: undefined! };
      made.context = esbuild().context(buildOptions(input, () => made.state));
      // esbuild could not start: forget the context, so the next bundle tries again.
      made.context.catch(() => {
        if (this.kept.get(key) === made) this.kept.delete(key);
      });
      kept = made;
    }
    this.kept.set(key, kept);
    for (const [oldest, evicted] of this.kept) {
      if (this.kept.size <= this.limit) break;
      this.kept.delete(oldest);
      void this.release(evicted);
    }
    const entry = kept;
    const run = entry.queue.then(async () => {
      entry.state = stateOf(input);
      const result = await (await entry.context).rebuild().catch((error: unknown) => bundleErrorOf(error, input));
      return outputOf(result, input);
    });
    entry.queue = run.catch(() => undefined);
    return run;
  }

  /** Disposes every kept context once its queued rebuilds are done; later bundles build without one. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const all = [...this.kept.values()];
    this.kept.clear();
    await Promise.all(all.map((kept) => this.release(kept)));
  }

  private async release(kept: KeptContext): Promise<void> {
    await kept.queue;
    const context = await kept.context.catch(() => undefined);
    await context?.dispose();
  }
}

/** agentdef's own `plugin/` folder. */
const PLUGIN_DIR = join(__dirname, '..');

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function failuresOf(error: unknown): BundleFailure[] {
  if (error instanceof BundleError) return error.failures;
  return [{ text: error instanceof Error ? error.message : String(error) }];
}

/**
 * What shapes a build of `request` besides the generated modules: every field but the entry's and
 * the files' contents, the files' paths and the text modules' contents, which the kept context's
 * plugins serve from the request being built (agents with different generated modules share one
 * context, and so the runtime parsed once).
 */
function contextKey(request: BundleRequest): string {
  const { entry, files: _files, textModules, ...rest } = request;
  return JSON.stringify({ ...rest, entry: entry.path, textModules: Object.keys(textModules ?? {}).sort() });
}

export interface EsbuildBundlerOptions {
  workspaceRoot: string;
  /**
   * Keep esbuild contexts (a few, least recently used disposed) and rebuild in them: for a bundler
   * that lives across compiles (a compile session, a watch loop). Its owner must call `dispose`.
   * Without it, every bundle is a fresh esbuild build and `dispose` has nothing to do.
   */
  incremental?: boolean;
}

export function createEsbuildBundler(options: EsbuildBundlerOptions): Bundler {
  const { workspaceRoot } = options;
  const reused = new Map<string, Promise<BundleResult>>();
  const contexts = options.incremental ? new BundleContexts() : undefined;
  const run = async (request: BundleRequest): Promise<BundleResult> => {
    const input: BundleInput = {
      entry: request.entry,
      ...(request.files ? { files: request.files } : {}),
      ...(request.virtualRoot !== undefined ? { virtualRoot: request.virtualRoot } : {}),
      resolveDir: workspaceRoot,
      workingDir: request.moduleNames === 'workspace' ? workspaceRoot : PLUGIN_DIR,
      sourceRoots: [
        { dir: PLUGIN_DIR, prefix: 'agentdef/plugin/' },
        { dir: workspaceRoot, prefix: '' },
      ],
      platform: request.platform,
      format: 'esm',
      ...(request.target ? { target: request.target } : {}),
      externals: request.externals ?? [],
      aliases: {
        [AGENTDEF_MODULES.runtime]: join(PLUGIN_DIR, 'runtime', 'index'),
        [AGENTDEF_MODULES.workerHost]: join(PLUGIN_DIR, 'hosts', 'worker', 'index'),
        [AGENTDEF_MODULES.nodeHost]: join(PLUGIN_DIR, 'hosts', 'node'),
        [AGENTDEF_MODULES.workspace]: workspaceRoot,
      },
      ...(request.textModules ? { textModules: request.textModules } : {}),
      ...(request.conditions ? { conditions: request.conditions } : {}),
      minify: request.minify ?? false,
      sourcemap: request.sourcemap ?? true,
      outFile: request.outFile,
      ...(request.banner !== undefined ? { banner: request.banner } : {}),
      ...(request.legalComments ? { legalComments: request.legalComments } : {}),
      // esbuild names importers by their real path.
      refuse: {
        dir: realPath(workspaceRoot),
        except: [realPath(PLUGIN_DIR)],
        reason: (specifier, importer) => refusedImport(specifier, request.platform, importer),
      },
      // Workers: a computed `import('cloudflare:' + 'sockets')` would get around the refusal.
      ...(request.platform === 'node' ? {} : { dynamicImport: false }),
    };
    try {
      // A reusable request is bundled once per bundler: a context would only hold esbuild's process.
      const out =
        contexts && !request.reusable ? await contexts.bundle(contextKey(request), input) : await bundleModule(input);
      return { ok: true, code: out.code, ...(out.map !== undefined ? { map: out.map } : {}), bytes: out.bytes };
    } catch (error) {
      return { ok: false, failures: failuresOf(error) };
    }
  };
  return {
    bundle(request) {
      if (!request.reusable) return run(request);
      const key = createHash('sha256').update(JSON.stringify(request)).digest('hex');
      let result = reused.get(key);
      if (!result) {
        result = run(request);
        reused.set(key, result);
      }
      return result;
    },
    async dispose() {
      await contexts?.dispose();
    },
  };
}
