/**
 * `agentdef deploy <output folder>`: picks the deploy target from what the compile output holds
 * (`wrangler.jsonc`: a Worker; `hb3-job.json`: an HB3 image and job; `launcher.json`: a local
 * service) and hands over to it. Options that only one target takes are refused for the others.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { JOB_FILE, LAUNCHER_MANIFEST } from '../host-contract/output-files';
import { DEPLOY_EXIT, type DeployOptions } from './deploy-options';
import { displayPath } from './display-path';
import { deployHb3 } from './hb3-deploy';
import { deployLocalService } from './local-service-deploy';
import { deployWorker, WRANGLER_CONFIG_FILE } from './worker-deploy';

export type DeployTarget = 'worker' | 'hb3' | 'local-mac';

/** The target of a compile output, from the file that marks it; undefined when it is none. */
export function deployTargetOf(outDir: string): DeployTarget | undefined {
  if (existsSync(join(outDir, WRANGLER_CONFIG_FILE))) return 'worker';
  if (existsSync(join(outDir, JOB_FILE))) return 'hb3';
  if (existsSync(join(outDir, LAUNCHER_MANIFEST))) return 'local-mac';
  return undefined;
}

const ONLY_FOR: Record<string, { target: DeployTarget; given: (o: DeployOptions) => boolean }> = {
  '--into': { target: 'local-mac', given: (o) => o.into !== undefined },
  '--uninstall': { target: 'local-mac', given: (o) => o.uninstall === true },
  '--service': { target: 'local-mac', given: (o) => o.service !== undefined },
  '--port': { target: 'local-mac', given: (o) => o.port !== undefined },
  '--registry': { target: 'hb3', given: (o) => o.registry !== undefined },
};

export async function deployOutput(options: DeployOptions): Promise<number> {
  const target = deployTargetOf(options.outDir);
  if (target === undefined) {
    options.stderr(`error: ${displayPath(options.outDir, options.workspaceRoot)} is not a compile output (no ${WRANGLER_CONFIG_FILE}, ${JOB_FILE} or ${LAUNCHER_MANIFEST}): compile the agent first\n`);
    return DEPLOY_EXIT.usage;
  }
  for (const [flag, rule] of Object.entries(ONLY_FOR)) {
    if (rule.given(options) && rule.target !== target) {
      options.stderr(`error: ${flag} is for ${rule.target} outputs; ${displayPath(options.outDir, options.workspaceRoot)} is a ${target} output\n`);
      return DEPLOY_EXIT.usage;
    }
  }
  if (target === 'worker') return deployWorker(options);
  if (target === 'hb3') return deployHb3(options);
  return deployLocalService(options);
}
