/**
 * Golden files of adapter outputs, shared by every target. A suite lives in
 * `e2e/golden/<target>/suite.ts` and exports `suite: GoldenSuite`; its checked-in files are in
 * `e2e/golden/<target>/__golden__/<example>/…`. `node scripts/update-goldens.mjs` regenerates
 * every suite it finds (or `--check`s them); each suite's test fails on drift.
 *
 * Outputs are emitted in memory from the repository's own examples and tools.json (the pipeline's
 * `emitAgent`, nothing is written), then each suite picks the files it pins and normalises what must
 * not be pinned (e.g. bundled code, which changes with every runtime change and is tested elsewhere).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { emitAgent, planAgent } from '../../plugin/compiler/compile';
import type { EmittedFile } from '../../plugin/targets/target';
import type { CompileTarget } from '../../plugin/targets/targets';
import { loadWorkspaceConfig } from '../../plugin/compiler/workspace-config';

export const REPO_ROOT = join(__dirname, '..', '..');

export interface GoldenSuite {
  target: CompileTarget;
  /** Example slugs (folders of `examples/`) whose outputs are pinned. */
  examples: readonly string[];
  /** The golden files of one example's output: path (relative to the example's golden folder) → contents. */
  select(files: readonly EmittedFile[]): Map<string, string>;
}

export function goldenDir(target: CompileTarget): string {
  return join(REPO_ROOT, 'e2e', 'golden', target, '__golden__');
}

/** Emits one example for the suite's target, in memory, from the repository workspace. */
export async function emitExample(target: CompileTarget, slug: string): Promise<EmittedFile[]> {
  const file = existsSync(join(REPO_ROOT, 'examples', slug, 'agent.yaml'))
    ? `examples/${slug}/agent.yaml`
    : `examples/${slug}/agent.json`;
  const planned = await planAgent({ file, workspaceRoot: REPO_ROOT, target });
  if (!planned.plan || !planned.resolved)
    throw new Error(
      `golden ${target}/${slug}: planning failed: ${planned.ioError ?? planned.diagnostics.map((d) => d.message).join('; ')}`,
    );
  const workspace = loadWorkspaceConfig(REPO_ROOT);
  const emitted = await emitAgent(
    { plan: planned.plan, resolved: planned.resolved },
    { workspaceRoot: REPO_ROOT, workspace: workspace.config },
  );
  if (!emitted.files)
    throw new Error(
      `golden ${target}/${slug}: emit failed: ${emitted.diagnostics.map((d) => `${d.file}:${d.line} ${d.message}`).join('; ')}`,
    );
  return emitted.files;
}

/** Every golden file of a suite, by path relative to its `__golden__` folder. */
export async function renderSuite(suite: GoldenSuite): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const slug of suite.examples) {
    for (const [path, contents] of suite.select(await emitExample(suite.target, slug)))
      out.set(`${slug}/${path}`, contents);
  }
  return out;
}

/** The checked-in golden files of a target. */
export function readGoldens(target: CompileTarget): Map<string, string> {
  const root = goldenDir(target);
  const out = new Map<string, string>();
  if (!existsSync(root)) return out;
  const walk = (dir: string, prefix: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path, `${prefix}${name}/`);
      else out.set(`${prefix}${name}`, readFileSync(path, 'utf8'));
    }
  };
  walk(root, '');
  return out;
}

/** Paths that differ between the rendered and the checked-in goldens (missing, extra or changed). */
export function goldenDrift(rendered: ReadonlyMap<string, string>, checkedIn: ReadonlyMap<string, string>): string[] {
  const paths = new Set([...rendered.keys(), ...checkedIn.keys()]);
  return [...paths].sort().filter((path) => rendered.get(path) !== checkedIn.get(path));
}

export function writeGoldens(target: CompileTarget, files: ReadonlyMap<string, string>): void {
  const root = goldenDir(target);
  rmSync(root, { recursive: true, force: true });
  for (const [path, contents] of files) {
    const absolute = join(root, ...path.split('/'));
    mkdirSync(dirname(absolute), { recursive: true });
    writeFileSync(absolute, contents);
  }
}
