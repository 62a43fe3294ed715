/**
 * Deploying a Worker output: `wrangler deploy --config <output>/wrangler.jsonc` with the pinned
 * wrangler (the workspace's, else agentdef's own). `--dry-run` runs wrangler's own dry run
 * (`--dry-run --outdir <temp folder>`: it reads the config and the bundle, lists the bindings and
 * uploads nothing) and removes the folder after. The secrets the Worker needs (`secrets.required`
 * of the generated config) are listed by name only: their values are set with
 * `wrangler secret put <NAME>` and never pass through agentdef.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DEPLOY_EXIT, type DeployOptions } from '../../deploy/deploy-options';
import { displayPath, shellLine } from '../../deploy/display-path';
import { runTool } from '../../deploy/run-tool';
import { UNREGISTERED_DEPLOYMENT_ENV } from '../../runtime/agent-card';

export const WRANGLER_CONFIG_FILE = 'wrangler.jsonc';

export interface WorkerDeployPlan {
  /** The Worker's name (`name` of the config). */
  name: string;
  /** The generated config (absolute). */
  config: string;
  /** The secret bindings the Worker needs, by name. */
  secrets: string[];
}

/** The generated `wrangler.jsonc` read (its leading `//` comment lines dropped), or a message. */
export function readWorkerDeployPlan(outDir: string): WorkerDeployPlan | { error: string } {
  const config = join(outDir, WRANGLER_CONFIG_FILE);
  let parsed: unknown;
  try {
    const text = readFileSync(config, 'utf8');
    parsed = JSON.parse(
      text
        .split('\n')
        .filter((line) => !line.trimStart().startsWith('//'))
        .join('\n'),
    );
  } catch (error) {
    return { error: `cannot read ${WRANGLER_CONFIG_FILE}: ${(error as Error).message}; compile the agent again` };
  }
  if (typeof parsed !== 'object' || parsed === null || typeof (parsed as { name?: unknown }).name !== 'string')
    return { error: `${WRANGLER_CONFIG_FILE} has no Worker name; compile the agent again` };
  const required = (parsed as { secrets?: { required?: unknown } }).secrets?.required;
  const secrets = Array.isArray(required) ? required.filter((name): name is string => typeof name === 'string') : [];
  return { name: (parsed as { name: string }).name, config, secrets: [...secrets].sort() };
}

/**
 * wrangler's arguments for the plan: a deploy, or its dry run writing into `outdir`. An
 * unregistered deployment (`deploy --allow-unregistered`) sets the Worker var the host reads into
 * its served card (agent-card.ts `UNREGISTERED_DEPLOYMENT_ENV`).
 */
export function wranglerDeployArgs(
  plan: WorkerDeployPlan,
  dryRunOutdir?: string,
  options: { unregistered?: boolean } = {},
): string[] {
  return [
    'deploy',
    '--config',
    plan.config,
    ...(options.unregistered === true ? ['--var', `${UNREGISTERED_DEPLOYMENT_ENV}:1`] : []),
    ...(dryRunOutdir !== undefined ? ['--dry-run', '--outdir', dryRunOutdir] : []),
  ];
}

/** The wrangler agentdef is tested with (an optional peer of the package): what a missing one says to install. */
export const WRANGLER_PACKAGE = 'wrangler@4.86.0';

/** wrangler's CLI script: the workspace's pinned wrangler, else one installed beside agentdef. */
export function findWrangler(workspaceRoot: string, near: string = __filename): string | undefined {
  for (const from of [join(workspaceRoot, 'package.json'), near]) {
    try {
      const manifest = createRequire(from).resolve('wrangler/package.json');
      const bin = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: Record<string, string> }).bin?.['wrangler'];
      if (bin) return join(dirname(manifest), bin);
    } catch {
      // not installed there: try the next place
    }
  }
  return undefined;
}

/** The secrets the Worker needs, by name, and the command that sets each (its value is typed into wrangler, never passed here). */
function secretLines(plan: WorkerDeployPlan, workspaceRoot: string): string[] {
  if (plan.secrets.length === 0) return ['secrets: none'];
  const config = displayPath(plan.config, workspaceRoot);
  return [
    `secrets the Worker needs (names only; set each once): ${plan.secrets.join(', ')}`,
    ...plan.secrets.map((name) => `  ${shellLine(['wrangler', 'secret', 'put', name, '--config', config])}`),
  ];
}

/** `locate` finds wrangler's CLI script (tests point it elsewhere). */
export async function deployWorker(
  options: DeployOptions,
  locate: (workspaceRoot: string) => string | undefined = findWrangler,
): Promise<number> {
  const plan = readWorkerDeployPlan(options.outDir);
  if ('error' in plan) {
    options.stderr(`error: ${plan.error}\n`);
    return DEPLOY_EXIT.usage;
  }
  const wrangler = locate(options.workspaceRoot);
  if (wrangler === undefined) {
    options.stderr(
      `error: deploying a Worker output needs wrangler (Cloudflare's CLI), an optional peer of agentdef that is not installed in this workspace: install it with \`npm install --save-dev ${WRANGLER_PACKAGE}\`\n`,
    );
    return DEPLOY_EXIT.failed;
  }
  const shown = (args: string[]) =>
    shellLine([
      'wrangler',
      ...args.map((arg) => (arg === plan.config ? displayPath(arg, options.workspaceRoot) : arg)),
    ]);
  const env: NodeJS.ProcessEnv = { ...(options.env ?? process.env), FORCE_COLOR: '0' };
  const mark = { unregistered: options.unregistered === true };
  options.stdout(`Worker ${plan.name} from ${displayPath(options.outDir, options.workspaceRoot)}\n`);
  if (options.dryRun) {
    const outdir = mkdtempSync(join(tmpdir(), 'agentdef-deploy-'));
    try {
      options.stdout(`running: ${shown(wranglerDeployArgs(plan, '<temporary folder>', mark))}\n`);
      const code = await runTool({
        command: process.execPath,
        args: [wrangler, ...wranglerDeployArgs(plan, outdir, mark)],
        cwd: options.workspaceRoot,
        // No banner (it asks npm for a newer wrangler), no metrics, no error reports: the dry run stays offline.
        env: {
          ...env,
          WRANGLER_HIDE_BANNER: 'true',
          WRANGLER_SEND_METRICS: 'false',
          WRANGLER_SEND_ERROR_REPORTS: 'false',
        },
        interactive: false,
        stdout: options.stdout,
        stderr: options.stderr,
      });
      if (code !== 0) {
        options.stderr(`error: wrangler's dry run failed (exit code ${code})\n`);
        return DEPLOY_EXIT.failed;
      }
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
    options.stdout(
      `${[...secretLines(plan, options.workspaceRoot), `dry run: nothing was uploaded; to deploy: ${shown(wranglerDeployArgs(plan, undefined, mark))}`].join('\n')}\n`,
    );
    return DEPLOY_EXIT.ok;
  }
  options.stdout(`running: ${shown(wranglerDeployArgs(plan, undefined, mark))}\n`);
  const code = await runTool({
    command: process.execPath,
    args: [wrangler, ...wranglerDeployArgs(plan, undefined, mark)],
    cwd: options.workspaceRoot,
    env,
    interactive: true,
    stdout: options.stdout,
    stderr: options.stderr,
  });
  if (code !== 0) {
    options.stderr(`error: wrangler deploy failed (exit code ${code})\n`);
    return DEPLOY_EXIT.failed;
  }
  options.stdout(`${secretLines(plan, options.workspaceRoot).join('\n')}\n`);
  return DEPLOY_EXIT.ok;
}
