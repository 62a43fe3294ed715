/**
 * `agentdef deploy <output folder>`: the target the output's plan.json names deploys it with its
 * own tool (its descriptor's `deploy`, plugin/targets/<id>/target.ts). Options that only some
 * targets take are refused for the others.
 */
import { PLAN_FILE } from '../host-contract/output-files';
import { outputTarget } from '../targets/output-target';
import type { DeployOptionName } from '../targets/target';
import { deployOptionTargets, listText } from '../targets/targets';
import { DEPLOY_EXIT, type DeployOptions } from './deploy-options';
import { displayPath } from './display-path';

/** Whether each target-only option was given. */
const GIVEN: Readonly<Record<DeployOptionName, (o: DeployOptions) => boolean>> = {
  into: (o) => o.into !== undefined,
  uninstall: (o) => o.uninstall === true,
  service: (o) => o.service !== undefined,
  port: (o) => o.port !== undefined,
  registry: (o) => o.registry !== undefined,
  // Set only when the KYM gate let a refused agentic output through (operations/deploy.ts).
  'allow-unregistered': (o) => o.unregistered === true,
};

export async function deployOutput(options: DeployOptions): Promise<number> {
  const shown = displayPath(options.outDir, options.workspaceRoot);
  const found = outputTarget(options.outDir);
  if (found.target === undefined) {
    options.stderr(
      found.noPlan
        ? `error: ${shown} is not a compile output (no ${PLAN_FILE} naming its target): compile the agent first\n`
        : `error: ${found.problem}\n`,
    );
    return DEPLOY_EXIT.usage;
  }
  const target = found.target;
  for (const [option, given] of Object.entries(GIVEN) as [DeployOptionName, (o: DeployOptions) => boolean][]) {
    if (given(options) && !target.deployOptions.includes(option)) {
      options.stderr(
        `error: --${option} is for ${listText(deployOptionTargets(option))} outputs; ${shown} is a ${target.id} output\n`,
      );
      return DEPLOY_EXIT.usage;
    }
  }
  return (await target.deploy())(options);
}
