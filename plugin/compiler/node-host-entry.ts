/**
 * Bundles a compiled Node host (HB3 `entrypoint.mjs`, local `launch.mjs`) with esbuild, in memory:
 * one ES module for Node 20 holding the host main, the portable runtime, the tool modules of
 * tools.json and the host bundle (configs) as a JSON literal. Whitespace-minified, so no comment
 * carries a path; resolved from the workspace root, so the bytes depend on the inputs only.
 * A `require` made from `import.meta.url` lets bundled CommonJS code load Node built-ins.
 */
import { join } from 'node:path';
import type { Diagnostic } from '../definition/diagnostic';
import type { NodeHostSpec } from '../host-contract/node-host-spec';
import { TOOLS_FILE, type WorkspaceConfig } from './workspace-config';
import { locateFinding } from '../definition/validate-definition';
import { joinPointer } from '../definition/json-pointer';
import type { ToolModule } from './node-host-spec';

/** The host mains, by file name in `plugin/hosts/node/`. */
export type HostMain = 'hb3-main' | 'launcher-main';

const HOSTS_DIR = join(__dirname, '..', 'hosts', 'node');

const BANNER = "import { createRequire as __agentdefCreateRequire } from 'node:module';\nconst require = __agentdefCreateRequire(import.meta.url);";

/** The generated entry: imports the main and every tool, then starts the host with the bundle. */
export function hostEntrySource(main: HostMain, bundle: NodeHostSpec, tools: readonly ToolModule[]): string {
  const lines = [`import { main } from ${JSON.stringify(join(HOSTS_DIR, main))};`];
  tools.forEach((tool, i) => lines.push(`import { ${tool.export} as __tool${i} } from ${JSON.stringify(tool.module)};`));
  lines.push(`const bundle = ${JSON.stringify(bundle)};`);
  lines.push(`main({ ...bundle, tools: { ${tools.map((tool, i) => `${JSON.stringify(tool.toolId)}: __tool${i}`).join(', ')} } });`);
  return `${lines.join('\n')}\n`;
}

export type NodeBundleResult = { text: string; diagnostics?: undefined } | { text?: undefined; diagnostics: Diagnostic[] };

function toolOfError(text: string, tools: readonly ToolModule[]): ToolModule | undefined {
  return tools.find((t) => text.includes(t.module.replace(/^\.\//, '')) || text.includes(`"${t.export}"`));
}

export async function bundleNodeHost(options: {
  workspaceRoot: string;
  workspace: WorkspaceConfig;
  main: HostMain;
  bundle: NodeHostSpec;
  tools: readonly ToolModule[];
  /** Where problems that name no tool are reported (the root definition's diagnostic location). */
  fallback: Diagnostic;
}): Promise<NodeBundleResult> {
  const { build } = await import('esbuild');
  let result;
  try {
    result = await build({
      stdin: { contents: hostEntrySource(options.main, options.bundle, options.tools), resolveDir: options.workspaceRoot, sourcefile: 'agentdef-host-entry.mjs', loader: 'js' },
      absWorkingDir: options.workspaceRoot,
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      minifyWhitespace: true,
      minifySyntax: true,
      legalComments: 'none',
      charset: 'utf8',
      banner: { js: BANNER },
      logLevel: 'silent',
    });
  } catch (error) {
    const failures = (error as { errors?: { text: string; location?: { file?: string } | null }[] }).errors ?? [{ text: (error as Error).message }];
    const toolsDocument = options.workspace.documents.get(TOOLS_FILE);
    const diagnostics = failures.map((failure): Diagnostic => {
      const text = `${failure.text}${failure.location?.file ? ` (${failure.location.file})` : ''}`;
      const tool = toolOfError(text, options.tools);
      if (tool && toolsDocument) {
        return locateFinding(toolsDocument, {
          rule: 'bundle',
          path: joinPointer('/tools', tool.toolId),
          message: `cannot bundle tool "${tool.toolId}" from ${tool.module}: ${failure.text}`,
          suggestion: `check that ${tool.module} exists and exports a function named ${tool.export}`,
        });
      }
      return { ...options.fallback, message: `cannot bundle the host: ${text}` };
    });
    return { diagnostics };
  }
  const file = result.outputFiles[0];
  if (!file) return { diagnostics: [{ ...options.fallback, message: 'cannot bundle the host: esbuild produced no output' }] };
  return { text: file.text };
}
