/**
 * The one bundler port of the compiler. Adapters describe what to bundle (generated modules,
 * agentdef's own modules by specifier, the workspace's tool modules, externals, text modules) and
 * get code back, or structured failures; they never name a path on disk. The esbuild
 * implementation is bundle.ts; adapter tests may pass a fake. `bundleFailureDiagnostics`
 * is the one place a failure becomes a located diagnostic: at the tool's entry in tools.json when
 * it names a tool module, else at the root definition.
 *
 * Some imports are refused in the workspace's own modules whatever the target (`refusedImport`):
 * each opens a way around the egress guard of the host the bundle runs on.
 */
import type { Diagnostic } from '../definition/diagnostic';
import { joinPointer } from '../definition/json-pointer';
import type { SourceDocument } from '../definition/source-document';
import { locateFinding } from '../definition/validate-definition';
import type { RuntimeConfig } from '../runtime/runtime-config';
import { TOOLS_FILE } from '../definition/workspace-definitions';
import type { WorkspaceConfig } from './workspace-config';

/** Specifiers of agentdef's own modules, resolved by the bundler wherever agentdef is installed. */
export const AGENTDEF_MODULES = {
  runtime: 'agentdef:runtime',
  workerHost: 'agentdef:worker-host',
  /** + `hb3-main` or `launcher-main`: a Node host main. */
  nodeHost: 'agentdef:node-host/',
  /** + a tools.json module path without `./`: a module of the workspace. */
  workspace: 'agentdef:workspace/',
} as const;

export interface BundleRequest {
  /** The entry module: its virtual path (posix) and its source. */
  entry: { path: string; contents: string };
  /** Other generated modules by virtual path (posix); imports between them are relative. */
  files?: Readonly<Record<string, string>>;
  /** The folder generated modules appear under in the source map (e.g. `src`). */
  virtualRoot?: string;
  platform: 'neutral' | 'node';
  /** esbuild's target, e.g. `es2022` (default) or `node20`. */
  target?: string;
  /** Specifiers left as imports (`cloudflare:*`); `*` wildcards allowed. */
  externals?: readonly string[];
  /** Specifier → text: `import text from '<specifier>'` gives the string. */
  textModules?: Readonly<Record<string, string>>;
  /** Package.json `exports` conditions to prefer (e.g. `workerd`). */
  conditions?: readonly string[];
  /** `true`: full minification; `syntax`: whitespace and syntax only (names stay readable). */
  minify?: boolean | 'syntax';
  sourcemap?: boolean;
  /** The output file's name, for the map and the `sourceMappingURL` comment. */
  outFile: string;
  /** Code put before the bundle. */
  banner?: string;
  /** Keep license comments at the end (default) or drop them. */
  legalComments?: 'eof' | 'none';
  /** The output depends on agentdef's own modules only (no workspace file): a bundler may serve it again. */
  reusable?: boolean;
  /** Whose paths name the modules in unminified output's comments: agentdef's plugin folder (default) or the workspace. */
  moduleNames?: 'agentdef' | 'workspace';
}

/** One bundling failure; `file` is workspace-relative or `agentdef/plugin/…`, never absolute. */
export interface BundleFailure {
  text: string;
  file?: string;
  line?: number;
  column?: number;
}

export type BundleResult =
  | { ok: true; code: string; map?: string; bytes: number }
  | { ok: false; failures: BundleFailure[] };

export interface Bundler {
  bundle(request: BundleRequest): Promise<BundleResult>;
  /**
   * Releases what the bundler keeps between bundles (esbuild's incremental contexts hold its
   * process open): a long-lived bundler's owner calls it once done. Later bundles still work.
   */
  dispose(): Promise<void>;
}

/**
 * Why a module of the workspace may not import `specifier` on `platform`, or undefined when it may:
 * raw sockets on Workers (`cloudflare:sockets` reaches any host:port, outside the isolate's egress
 * guard) and the Worker's own modules (`cloudflare:workers` hands out `env`: secrets, bindings and
 * the Worker Loader, whose Workers have a network of their own), from any module but agentdef's
 * own (a package a tool imports included), and on Node hosts the modules that run code outside
 * the process's network guard
 * (a child process, a worker thread, a cluster worker).
 */
export function refusedImport(
  specifier: string,
  platform: BundleRequest['platform'],
  importer: 'workspace' | 'package',
): string | undefined {
  if (specifier === 'cloudflare:sockets') {
    return 'cloudflare:sockets opens raw TCP connections to any host, around the egress allow-list: a tool reaches the network only with fetch, to the origins it declares in endpoints';
  }
  if (specifier.startsWith('cloudflare:')) {
    return `${specifier} gives a module the Worker's own env (secrets, bindings, the Worker Loader, which starts Workers outside the allow-list) and exports: a tool gets only its arguments and its context`;
  }
  // A package may need these (agentdef's own MCP client spawns its servers); only the workspace's modules are refused.
  if (platform !== 'node' || importer !== 'workspace') return undefined;
  const name = specifier.replace(/^node:/, '');
  if (name === 'child_process' || name === 'worker_threads' || name === 'cluster') {
    return `${specifier} runs code outside the host's network guard, around the egress allow-list: declare a native tool instead (its executable runs with the host's permissions and is reviewed as one)`;
  }
  return undefined;
}

/** A tool module the bundle imports: the tool, and where tools.json says its code is. */
export interface BundledTool {
  toolId: string;
  module: string;
  export: string;
}

/** The tools.json implementations of every bundled tool the configs name, once each, by tool id. */
export function bundledToolsOf(configs: Iterable<RuntimeConfig>, workspace: WorkspaceConfig): BundledTool[] {
  const ids = new Set<string>();
  for (const config of configs) for (const tool of config.tools) if (tool.kind === 'bundled') ids.add(tool.id);
  const tools: BundledTool[] = [];
  for (const toolId of [...ids].sort()) {
    const implementation = workspace.tools.get(toolId);
    if (implementation) tools.push({ toolId, module: implementation.module, export: implementation.export });
  }
  return tools;
}

/** The import specifier of a tools.json module: `./x.ts` is a workspace file, anything else a package. */
export function toolSpecifier(module: string): string {
  return module.startsWith('./') ? `${AGENTDEF_MODULES.workspace}${module.slice(2)}` : module;
}

/** `file:line:column: text`, or the text alone when esbuild named no place. */
export function describeFailure(failure: BundleFailure): string {
  return failure.file
    ? `${failure.file}${failure.line ? `:${failure.line}:${(failure.column ?? 0) + 1}` : ''}: ${failure.text}`
    : failure.text;
}

function toolOf(failure: BundleFailure, tools: readonly BundledTool[]): BundledTool | undefined {
  const text = `${failure.file ?? ''} ${failure.text}`;
  return tools.find(
    (t) =>
      (t.module.startsWith('./') && text.includes(t.module.slice(2))) ||
      text.includes(`"${t.module}"`) ||
      text.includes(`"${t.export}"`),
  );
}

/** Located diagnostics for failures: at `/tools/<id>` in tools.json when one names a tool, else at the root definition. */
export function bundleFailureDiagnostics(
  failures: readonly BundleFailure[],
  context: { workspace: WorkspaceConfig; tools: readonly BundledTool[]; root: SourceDocument; what: string },
): Diagnostic[] {
  const toolsDocument = context.workspace.documents.get(TOOLS_FILE);
  return failures.map((failure) => {
    const tool = toolOf(failure, context.tools);
    if (tool && toolsDocument) {
      return locateFinding(toolsDocument, {
        rule: 'bundle',
        path: joinPointer('/tools', tool.toolId),
        message: `cannot bundle tool "${tool.toolId}" from ${tool.module}: ${describeFailure(failure)}`,
        suggestion: `check that ${tool.module} exists, bundles, and exports a function named ${tool.export}`,
      });
    }
    return locateFinding(context.root, {
      rule: 'bundle',
      path: '',
      message: `cannot bundle ${context.what}: ${describeFailure(failure)}`,
      suggestion: `check the tool modules ${TOOLS_FILE} names and their imports`,
    });
  });
}
