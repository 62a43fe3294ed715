/**
 * Deploying an HB3 output: the image's build context, the exact `docker build` / `docker push`
 * commands (podman when that is the engine on PATH) and the job specs to submit to the scheduler
 * (the root's `hb3-job.json`, each quarantined child's `jobs/*.hb3-job.json`, a dag's
 * `hb3-workflow.json`), with the secrets they reference by name. Without `--dry-run` the build
 * and the push run; when no container engine is on PATH it says so and prints the commands.
 * Submitting the job is the scheduler's own step (docs/hb3.md): agentdef prints what to submit.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CARD_SIGNING_KEY_SECRET } from '../../host-contract/container-contract';
import type { Hb3Job } from '../../host-contract/hb3-job';
import { JOB_FILE, WORKFLOW_FILE } from '../../host-contract/output-files';
import { findContainerEngine } from '../../deploy/container-engine';
import { DEPLOY_EXIT, type DeployOptions } from '../../deploy/deploy-options';
import { displayPath, shellLine } from '../../deploy/display-path';
import { runTool } from '../../deploy/run-tool';

export interface Hb3DeployPlan {
  /** `[<registry>/]<image.name>:<image.tag>` */
  imageRef: string;
  /** `<image.name>:<image.tag>`: the image as the job specs name it. */
  jobImageRef: string;
  /** The build context and Dockerfile (absolute). */
  context: string;
  dockerfile: string;
  /** The job specs to submit (absolute): the root's first, then the children's in name order, then the workflow. */
  specs: string[];
  /** The secrets the jobs need (`secretRef` names), sorted. */
  secrets: string[];
  /** The secrets the jobs take when the store holds them (`secretRef` with `optional: true`), sorted. */
  optionalSecrets: string[];
}

const JOBS_DIR = 'jobs';

function readJob(path: string): Hb3Job {
  return JSON.parse(readFileSync(path, 'utf8')) as Hb3Job;
}

/** The `secretRef`s of a job: each name, and whether the job starts without it. */
function secretRefs(job: Hb3Job): { name: string; optional: boolean }[] {
  return (Array.isArray(job.env) ? job.env : []).flatMap((variable) =>
    'secretRef' in variable && typeof variable.secretRef?.name === 'string'
      ? [{ name: variable.secretRef.name, optional: variable.secretRef.optional === true }]
      : [],
  );
}

/** A registry prefix: host and path words only (`ghcr.io/acme`, `127.0.0.1:5000/team`), no tag. */
export function checkRegistry(registry: string): string | undefined {
  return /^[a-z0-9]([a-z0-9._-]*[a-z0-9])?(:\d+)?(\/[a-z0-9]([a-z0-9._-]*[a-z0-9])?)*$/.test(registry)
    ? undefined
    : `--registry must be a registry host and path like ghcr.io/acme, not "${registry}"`;
}

export function readHb3DeployPlan(outDir: string, registry?: string): Hb3DeployPlan | { error: string } {
  let root: Hb3Job;
  try {
    root = readJob(join(outDir, JOB_FILE));
  } catch (error) {
    return { error: `cannot read ${JOB_FILE}: ${(error as Error).message}; compile the agent again` };
  }
  const image = root.image;
  if (
    typeof image?.name !== 'string' ||
    typeof image.tag !== 'string' ||
    typeof image.build?.context !== 'string' ||
    typeof image.build.dockerfile !== 'string'
  ) {
    return { error: `${JOB_FILE} has no image name, tag or build; compile the agent again` };
  }
  const inside = (rel: string) => !rel.split('/').includes('..') && !rel.startsWith('/');
  if (!inside(image.build.context) || !inside(image.build.dockerfile))
    return { error: `${JOB_FILE} names a build context outside the output folder; compile the agent again` };
  const specs = [join(outDir, JOB_FILE)];
  const refs = secretRefs(root);
  let children: string[] = [];
  try {
    children = readdirSync(join(outDir, JOBS_DIR))
      .filter((name) => name.endsWith(`.${JOB_FILE}`))
      .sort();
  } catch {
    // no quarantined child
  }
  for (const name of children) {
    const path = join(outDir, JOBS_DIR, name);
    specs.push(path);
    try {
      refs.push(...secretRefs(readJob(path)));
    } catch (error) {
      return { error: `cannot read ${JOBS_DIR}/${name}: ${(error as Error).message}; compile the agent again` };
    }
  }
  try {
    readFileSync(join(outDir, WORKFLOW_FILE));
    specs.push(join(outDir, WORKFLOW_FILE));
  } catch {
    // not a dag
  }
  const ref = `${image.name}:${image.tag}`;
  return {
    imageRef: registry ? `${registry}/${ref}` : ref,
    jobImageRef: ref,
    context: join(outDir, image.build.context),
    dockerfile: join(outDir, image.build.dockerfile),
    specs,
    ...splitSecrets(refs),
  };
}

/** Required names (any job needs it) and optional ones (every job that names it may start without it), each sorted. */
function splitSecrets(refs: readonly { name: string; optional: boolean }[]): {
  secrets: string[];
  optionalSecrets: string[];
} {
  const required = new Set(refs.filter((ref) => !ref.optional).map((ref) => ref.name));
  const optional = new Set(refs.filter((ref) => ref.optional && !required.has(ref.name)).map((ref) => ref.name));
  return { secrets: [...required].sort(), optionalSecrets: [...optional].sort() };
}

/** The build and push commands, run from the workspace. */
export function imageCommands(plan: Hb3DeployPlan, engine: string): { build: string[]; push: string[] } {
  return {
    build: [engine, 'build', '-t', plan.imageRef, '-f', plan.dockerfile, plan.context],
    push: [engine, 'push', plan.imageRef],
  };
}

export async function deployHb3(options: DeployOptions): Promise<number> {
  const env = options.env ?? process.env;
  if (options.registry !== undefined) {
    const bad = checkRegistry(options.registry);
    if (bad) {
      options.stderr(`error: ${bad}\n`);
      return DEPLOY_EXIT.usage;
    }
  }
  const plan = readHb3DeployPlan(options.outDir, options.registry);
  if ('error' in plan) {
    options.stderr(`error: ${plan.error}\n`);
    return DEPLOY_EXIT.usage;
  }
  const show = (path: string) => displayPath(path, options.workspaceRoot);
  const engine = findContainerEngine(env);
  const commands = imageCommands(plan, engine?.name ?? 'docker');
  const shown = (words: string[]) =>
    shellLine(words.map((word) => (word === plan.dockerfile || word === plan.context ? show(word) : word)));
  const lines = [
    `HB3 image ${plan.imageRef} from ${show(options.outDir)}`,
    `build context: ${show(plan.context)}`,
    'commands (run from the workspace root):',
    `  ${shown(commands.build)}`,
    `  ${shown(commands.push)}`,
    'job specs to submit:',
    ...plan.specs.map((spec) => `  ${show(spec)}`),
    plan.secrets.length
      ? `secrets the jobs reference (by name, from the scheduler's secret store): ${plan.secrets.join(', ')}`
      : 'secrets: none',
  ];
  if (plan.optionalSecrets.length)
    lines.push(
      `optional secrets (the jobs start without them): ${plan.optionalSecrets.join(', ')}${plan.optionalSecrets.includes(CARD_SIGNING_KEY_SECRET) ? `; ${CARD_SIGNING_KEY_SECRET} signs the served AgentCard` : ''}`,
    );
  if (plan.imageRef !== plan.jobImageRef)
    lines.push(`the job specs name the image ${plan.jobImageRef}: point the scheduler at ${plan.imageRef}`);
  if (!engine) lines.push('no container engine (docker or podman) is on PATH: run the commands above where one is');
  options.stdout(`${lines.join('\n')}\n`);
  if (options.dryRun) {
    options.stdout('dry run: nothing was built or pushed\n');
    return DEPLOY_EXIT.ok;
  }
  if (!engine) return DEPLOY_EXIT.failed;
  for (const [step, words] of [
    ['build', commands.build],
    ['push', commands.push],
  ] as const) {
    options.stdout(`running: ${shown(words)}\n`);
    const code = await runTool({
      command: engine.path,
      args: words.slice(1),
      cwd: options.workspaceRoot,
      env,
      interactive: true,
      stdout: options.stdout,
      stderr: options.stderr,
    });
    if (code !== 0) {
      options.stderr(`error: ${engine.name} ${step} failed (exit code ${code})\n`);
      return DEPLOY_EXIT.failed;
    }
  }
  options.stdout(`image pushed: ${plan.imageRef}; submit the job specs above to the scheduler\n`);
  return DEPLOY_EXIT.ok;
}
