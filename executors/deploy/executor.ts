/**
 * `deploy` executor (`nx run <agent>:deploy [--dry-run]`): deploys the agent's compiled output
 * with the real tool of its target (wrangler, docker/podman, the user service folder). A thin
 * shell around `deployCompiledOutput` (plugin/operations/deploy.ts: the deploy gate, then the target's deploy).
 */
import type { ExecutorContext } from '@nx/devkit';
import { compiledOutputPath } from '../compiled-output-options';
import { resolve } from 'node:path';
import { terminalSafe } from '../../plugin/definition/terminal-text';
import { deployCompiledOutput } from '../../plugin/operations/deploy';

export interface DeployExecutorOptions {
  /** The compile output folder, relative to the workspace root (default `dist/agents/<project>`). */
  outputPath?: string;
  /** Print what would be done (a Worker: wrangler's own dry run) without deploying. */
  dryRun?: boolean;
  /** local-mac: the folder the service file goes in, relative to the workspace root. */
  into?: string;
  /** local-mac: remove the service file installed before. */
  uninstall?: boolean;
  /** local-mac: launchd or systemd (default: the platform's). */
  service?: 'launchd' | 'systemd';
  /** local-mac: the port written into the service file. */
  port?: number;
  /** hb3: the registry prefix the image is pushed under. */
  registry?: string;
  /** Development: deploy an agentic agent the gate refuses, warned and marked unregistered. */
  allowUnregistered?: boolean;
  /** The folder registry an agentic agent must be published in, relative to the workspace root. */
  registryRoot?: string;
}

export default async function deployExecutor(
  options: DeployExecutorOptions & { 'dry-run'?: boolean },
  context: ExecutorContext,
): Promise<{ success: boolean }> {
  const outputPath = compiledOutputPath('deploy', options, context);
  if (outputPath === undefined) return { success: false };
  if (options.service !== undefined && options.service !== 'launchd' && options.service !== 'systemd') {
    console.error(terminalSafe(`agentdef:deploy: service must be launchd or systemd, not ${String(options.service)}`));
    return { success: false };
  }
  const code = await deployCompiledOutput({
    outDir: resolve(context.root, outputPath),
    workspaceRoot: context.root,
    dryRun: options.dryRun === true || options['dry-run'] === true,
    ...(options.into !== undefined ? { into: resolve(context.root, options.into) } : {}),
    ...(options.uninstall === true ? { uninstall: true } : {}),
    ...(options.service !== undefined ? { service: options.service } : {}),
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.registry !== undefined ? { registry: options.registry } : {}),
    ...(options.allowUnregistered === true ? { allowUnregistered: true } : {}),
    ...(options.registryRoot !== undefined ? { registryRoot: resolve(context.root, options.registryRoot) } : {}),
    stdout: (text) => process.stdout.write(terminalSafe(text)),
    stderr: (text) => process.stderr.write(terminalSafe(text)),
  });
  return { success: code === 0 };
}
