/**
 * `agentdef deploy` and the `deploy` executor: gathers the deploy gate's facts (plan.json's
 * provenance and registration, the live worktree, the configured registry), decides with the pure
 * gate (deploy/deploy-gate.ts), and only then deploys with the target's own tool
 * (deploy/deploy-output.ts). A refusal writes and changes nothing. With `--dry-run` a refusal is
 * printed as what the real deploy would refuse, and the dry run goes on (exit 0): a dry run shows
 * what would happen, it never deploys. Never throws.
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { digestOf } from '../compiler/canonical-json';
import { readSourceStamp, type SourceStamp } from '../compiler/source-stamp';
import { withoutPublishStamps } from '../definition/publish-stamps';
import { WORKSPACE_DEFAULTS } from '../definition/workspace-definitions';
import { deployGate, type DeployGateFacts, type PublishedFacts, type StampFacts } from '../deploy/deploy-gate';
import { deployOutput } from '../deploy/deploy-output';
import { DEPLOY_EXIT, type DeployOptions } from '../deploy/deploy-options';
import { displayPath } from '../deploy/display-path';
import { FolderRegistry } from '../registry/agent-registry';
import { outputTarget } from '../targets/output-target';

export interface GatedDeployOptions extends DeployOptions {
  /** Development: deploy an agentic output the gate refuses, warned and marked unregistered in its card. */
  allowUnregistered?: boolean;
  /** The folder registry the agent must be published in (default registry/agents of the workspace). */
  registryRoot?: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function stampFacts(value: unknown): StampFacts | undefined {
  if (!isRecord(value)) return undefined;
  const { commit, dirty, reason } = value;
  if (!(commit === null || (typeof commit === 'string' && /^[0-9a-f]{40}$/.test(commit)))) return undefined;
  if (!(dirty === null || typeof dirty === 'boolean')) return undefined;
  return { commit, dirty, ...(typeof reason === 'string' ? { reason } : {}) };
}

function registrationFacts(value: unknown): DeployGateFacts['registration'] {
  if (!isRecord(value)) return undefined;
  const { required, definitionDigest } = value;
  if (typeof required !== 'boolean' || typeof definitionDigest !== 'string') return undefined;
  return { required, definitionDigest };
}

async function publishedFacts(
  registry: FolderRegistry,
  slug: string,
  version: string,
  compiledDigest: string,
): Promise<PublishedFacts> {
  try {
    const hit = await registry.resolve(slug, version);
    if (hit === undefined) return { state: 'missing' };
    const published = digestOf(withoutPublishStamps(JSON.parse(new TextDecoder().decode(hit.bytes))));
    return published === compiledDigest ? { state: 'same' } : { state: 'other', publishedDigest: published };
  } catch (error) {
    return { state: 'unreadable', problem: (error as Error).message };
  }
}

/** The gate's facts for an output whose plan.json was read; `live` is asked of git unless given (tests). */
export async function gatherDeployGateFacts(
  plan: Record<string, unknown>,
  options: GatedDeployOptions,
  live?: SourceStamp,
): Promise<DeployGateFacts> {
  const root = isRecord(plan['root']) ? plan['root'] : {};
  const slug = typeof root['slug'] === 'string' ? root['slug'] : '';
  const version = typeof root['version'] === 'string' ? root['version'] : '';
  const first = Array.isArray(plan['nodes']) && isRecord(plan['nodes'][0]) ? plan['nodes'][0] : {};
  const file = typeof first['file'] === 'string' ? first['file'] : `${slug}/agent.json`;
  const registryRoot = options.registryRoot ?? WORKSPACE_DEFAULTS.registryRoot;
  const registryAbsolute = isAbsolute(registryRoot) ? registryRoot : resolve(options.workspaceRoot, registryRoot);
  const registration = registrationFacts(plan['registration']);
  const provenance = stampFacts(plan['provenance']);
  const definitionFolder = dirname(resolve(options.workspaceRoot, file));
  const published =
    registration?.required === true
      ? await publishedFacts(
          new FolderRegistry({ workspaceRoot: options.workspaceRoot, registryRoot }),
          slug,
          version,
          registration.definitionDigest,
        )
      : ({ state: 'missing' } as const);
  return {
    slug,
    version,
    definitionFile: file,
    outDir: displayPath(options.outDir, options.workspaceRoot),
    registryFolder: relative(options.workspaceRoot, registryAbsolute).split('\\').join('/') || '.',
    ...(registration !== undefined ? { registration } : {}),
    ...(provenance !== undefined ? { provenance } : {}),
    live:
      live ??
      (existsSync(definitionFolder)
        ? readSourceStamp(definitionFolder, resolve(options.workspaceRoot, file))
        : readSourceStamp(options.workspaceRoot)),
    published,
    allowUnregistered: options.allowUnregistered === true,
  };
}

/** Gate, then deploy (see the header). */
export async function deployCompiledOutput(options: GatedDeployOptions): Promise<number> {
  try {
    const found = outputTarget(options.outDir);
    // No plan to gate on (deployOutput says what is wrong), or removing an installed service: not a deploy.
    if (found.target === undefined || options.uninstall === true) return await deployOutput(options);
    const decision = deployGate(await gatherDeployGateFacts(found.plan, options));
    if (!decision.allowed) {
      if (options.dryRun) {
        for (const refusal of decision.refusals) options.stderr(`deploy would refuse: ${refusal}\n`);
        return await deployOutput(options);
      }
      for (const refusal of decision.refusals) options.stderr(`error: ${refusal}\n`);
      options.stderr(
        'error: deploy refused; nothing was deployed (--allow-unregistered deploys anyway for development, marked unregistered)\n',
      );
      return DEPLOY_EXIT.failed;
    }
    // A target that cannot mark the card refuses --allow-unregistered itself (deploy-output.ts, exit 2).
    if (!decision.unregistered || found.target.deployOptions.includes('allow-unregistered'))
      for (const warning of decision.warnings) options.stderr(`warning: ${warning}\n`);
    return await deployOutput({ ...options, ...(decision.unregistered ? { unregistered: true } : {}) });
  } catch (error) {
    options.stderr(`error: internal error while deploying: ${(error as Error).message}\n`);
    return DEPLOY_EXIT.failed;
  }
}
