/**
 * Throwaway workspaces for the Worker tests: a copy of the repository's examples, their tool
 * implementations and tools.json under the repository's `tmp/` (git-ignored), where a test may
 * edit a definition or add a tool before compiling. Compiles go through the real pipeline
 * (`compileAgent`) into `<workspace>/dist/agents/<slug>`.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AdapterOptions } from '../../../plugin/targets/target';
import { compileAgent, type CompileAgentResult } from '../../../plugin/compiler/compile';
import type { AgentDefinition } from '../../../plugin/schema/generated/agent-definition.types';

export const repoRoot = join(__dirname, '..', '..', '..');

export interface ExampleWorkspace {
  root: string;
  /** Workspace-relative path of an example's definition. */
  definition(slug: string): string;
  /** Rewrites an example's definition (parsed, changed, written back as JSON). */
  edit(slug: string, change: (definition: AgentDefinition) => void): void;
  write(path: string, text: string): void;
  read(path: string): string;
  remove(): void;
}

/** `nested` puts the workspace folders deeper (to show outputs do not depend on where the workspace is). */
export function exampleWorkspace(label: string, options: { nested?: string } = {}): ExampleWorkspace {
  const base = join(repoRoot, 'tmp', 'worker-e2e', ...(options.nested ? options.nested.split('/') : []));
  mkdirSync(base, { recursive: true });
  const root = mkdtempSync(join(base, `${label}-`));
  cpSync(join(repoRoot, 'examples'), join(root, 'examples'), { recursive: true });
  cpSync(join(repoRoot, 'tools.json'), join(root, 'tools.json'));
  writeFileSync(join(root, 'nx.json'), '{}\n');
  const definition = (slug: string) => `examples/${slug}/agent.json`;
  return {
    root,
    definition,
    edit(slug, change) {
      const path = join(root, definition(slug));
      const parsed = JSON.parse(readFileSync(path, 'utf8')) as AgentDefinition;
      change(parsed);
      writeFileSync(path, `${JSON.stringify(parsed, null, 2)}\n`);
    },
    write(path, text) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    },
    read: (path) => readFileSync(join(root, path), 'utf8'),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

export interface CompiledWorker {
  result: CompileAgentResult;
  /** Absolute output folder. */
  outDir: string;
  /** Every emitted file by its path in the output folder. */
  files: Map<string, string>;
}

export async function compileWorker(
  workspaceRoot: string,
  slug: string,
  options: { adapterOptions?: AdapterOptions; outDir?: string } = {},
): Promise<CompiledWorker> {
  const outDir = options.outDir ?? join(workspaceRoot, 'dist', 'agents', slug);
  const result = await compileAgent({
    file: `examples/${slug}/agent.json`,
    workspaceRoot,
    target: 'cloudflare-dynamic-worker',
    outDir,
    ...(options.adapterOptions ? { adapterOptions: options.adapterOptions } : {}),
  });
  return { result, outDir, files: new Map((result.files ?? []).map((f) => [f.path, f.contents])) };
}

/** Every file below `dir` (path relative to it, posix) with its bytes. */
export function filesBelow(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (current: string, prefix: string) => {
    for (const name of readdirSync(current).sort()) {
      const path = join(current, name);
      if (statSync(path).isDirectory()) walk(path, `${prefix}${name}/`);
      else out.set(`${prefix}${name}`, readFileSync(path));
    }
  };
  walk(dir, '');
  return out;
}
