/**
 * For the Kubernetes target's tests: the repository's container-class examples (a declared
 * runtime class that may run in a container: `container-required` or `workers-preferred`), and
 * their Kubernetes outputs emitted in memory from the repository's workspace.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { emitAgent, planAgent } from '../../../compiler/compile';
import { loadWorkspaceConfig } from '../../../compiler/workspace-config';
import { CLASS_HOSTS, type RuntimeCapabilityClass } from '../../../definition/runtime-hosts';
import type { EmittedFile } from '../../target';

export const REPO = join(__dirname, '..', '..', '..', '..');

/** `examples/<slug>/agent.json|yaml` of every example whose class may run in a container, by slug. */
export function containerExamples(): { slug: string; file: string }[] {
  const out: { slug: string; file: string }[] = [];
  for (const slug of readdirSync(join(REPO, 'examples')).sort()) {
    const file = ['agent.json', 'agent.yaml']
      .map((name) => `examples/${slug}/${name}`)
      .find((path) => existsSync(join(REPO, path)));
    if (file === undefined) continue;
    const definition = parse(readFileSync(join(REPO, file), 'utf8')) as {
      runtimeRequirements?: { runtimeCapabilityClass?: RuntimeCapabilityClass };
    };
    const cls = definition.runtimeRequirements?.runtimeCapabilityClass;
    if (cls !== undefined && CLASS_HOSTS[cls].includes('container')) out.push({ slug, file });
  }
  return out;
}

/** One example's Kubernetes output, in memory. */
export async function emitKubernetes(file: string): Promise<EmittedFile[]> {
  const planned = await planAgent({ file, workspaceRoot: REPO, target: 'kubernetes' });
  if (!planned.plan || !planned.resolved)
    throw new Error(`planning ${file} failed: ${planned.diagnostics.map((d) => d.message).join('; ')}`);
  const emitted = await emitAgent(
    { plan: planned.plan, resolved: planned.resolved },
    { workspaceRoot: REPO, workspace: loadWorkspaceConfig(REPO).config },
  );
  if (!emitted.files) throw new Error(`emitting ${file} failed: ${JSON.stringify(emitted.diagnostics)}`);
  return emitted.files;
}
