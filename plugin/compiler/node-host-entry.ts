/**
 * The entry of a compiled Node host (HB3 `entrypoint.mjs`, local `launch.mjs`), generated and
 * bundled through the bundler port: one ES module for Node 20 holding the network guard (first),
 * the host main, the portable runtime, the tool modules of tools.json (evaluated on the first tool
 * call, after the guard is armed) and the host spec (configs) as a JSON literal.
 * Whitespace- and syntax-minified, so no comment carries a path; agentdef's modules are named by
 * specifier, never by a path of this machine, so the bytes depend on the inputs only. A `require`
 * made from `import.meta.url` lets bundled CommonJS code load Node built-ins.
 */
import { hasErrors, type Diagnostic } from '../definition/diagnostic';
import type { SourceDocument } from '../definition/source-document';
import type { HostKind, NodeHostSpec } from '../host-contract/node-host-spec';
import { AGENTDEF_MODULES, bundleFailureDiagnostics, toolSpecifier, type BundledTool, type Bundler } from './bundler';
import { nodeHostSpecForTree, type TreeNodeHostSpec } from './node-host-spec';
import type { CompilePlan } from './plan';
import type { ResolvedNode } from './resolve';
import type { EmitContext } from '../targets/target';
import type { WorkspaceConfig } from './workspace-config';

/** The host mains, by file name in `plugin/hosts/node/`. */
export type HostMain = 'hb3-main' | 'launcher-main';

const BANNER =
  "import { createRequire as __agentdefCreateRequire } from 'node:module';\nconst require = __agentdefCreateRequire(import.meta.url);";

/** The generated module that re-exports every tool: imported lazily by the entry (see `hostEntrySource`). */
export const HOST_TOOLS_MODULE = 'agentdef-host-tools.mjs';

/** The tools module: each tool's export under a name of its own (a missing export fails the bundle). */
export function hostToolsSource(tools: readonly BundledTool[]): string {
  return `${tools.map((tool, i) => `export { ${tool.export} as __tool${i} } from ${JSON.stringify(toolSpecifier(tool.module))};`).join('\n')}\n`;
}

/**
 * The generated entry: installs the network guard (its first import: ES modules evaluate in
 * import order), imports the main, then starts the host with its spec. The tool modules are
 * evaluated on the first tool call, through a dynamic import of the tools module: never before the
 * host has armed the guard with its allow-list, so no tool code can run (or change a built-in the
 * host computes the allow-list with) before the allow-list holds.
 */
export function hostEntrySource(main: HostMain, spec: NodeHostSpec, tools: readonly BundledTool[]): string {
  const lines = [
    `import ${JSON.stringify(`${AGENTDEF_MODULES.nodeHost}network-guard-install`)};`,
    `import { main } from ${JSON.stringify(`${AGENTDEF_MODULES.nodeHost}${main}`)};`,
  ];
  lines.push(`const bundle = ${JSON.stringify(spec)};`);
  if (tools.length > 0) {
    lines.push('let loaded;');
    lines.push(
      `const tool = (name) => async (args, context) => (await (loaded ??= import(${JSON.stringify(`./${HOST_TOOLS_MODULE}`)})))[name](args, context);`,
    );
  }
  lines.push(
    `main({ ...bundle, tools: { ${tools.map((tool, i) => `${JSON.stringify(tool.toolId)}: tool("__tool${i}")`).join(', ')} } });`,
  );
  return `${lines.join('\n')}\n`;
}

export type NodeHostEntryResult =
  | { text: string; diagnostics?: undefined }
  | { text?: undefined; diagnostics: Diagnostic[] };

export async function bundleNodeHostEntry(options: {
  bundler: Bundler;
  workspace: WorkspaceConfig;
  main: HostMain;
  spec: NodeHostSpec;
  tools: readonly BundledTool[];
  /** The root definition: where a failure that names no tool is reported. */
  root: SourceDocument;
}): Promise<NodeHostEntryResult> {
  const out = await options.bundler.bundle({
    entry: { path: 'agentdef-host-entry.mjs', contents: hostEntrySource(options.main, options.spec, options.tools) },
    files: { [HOST_TOOLS_MODULE]: hostToolsSource(options.tools) },
    platform: 'node',
    target: 'node20',
    minify: 'syntax',
    legalComments: 'none',
    banner: BANNER,
    sourcemap: false,
    moduleNames: 'workspace',
    outFile: options.main === 'hb3-main' ? 'entrypoint.mjs' : 'launch.mjs',
  });
  if (!out.ok) {
    const what = options.main === 'hb3-main' ? 'the container entrypoint' : 'the launcher';
    return {
      diagnostics: bundleFailureDiagnostics(out.failures, {
        workspace: options.workspace,
        tools: options.tools,
        root: options.root,
        what,
      }),
    };
  }
  return { text: out.code };
}

/**
 * What both Node host adapters start from: the tree's host spec (projected once) and the bundled
 * entry that runs it, or the diagnostics that stop either.
 */
export async function emitNodeHost(
  plan: CompilePlan,
  resolved: ResolvedNode,
  context: EmitContext,
  host: HostKind,
  main: HostMain,
): Promise<{ tree: TreeNodeHostSpec; entry: string; diagnostics?: undefined } | { diagnostics: Diagnostic[] }> {
  const tree = nodeHostSpecForTree(plan, resolved, context, host);
  if (hasErrors(tree.diagnostics)) return { diagnostics: tree.diagnostics };
  const entry = await bundleNodeHostEntry({
    bundler: context.bundler,
    workspace: context.workspace,
    main,
    spec: tree.spec,
    tools: tree.toolModules,
    root: resolved.document,
  });
  if (entry.diagnostics) return { diagnostics: entry.diagnostics };
  return { tree, entry: entry.text };
}
