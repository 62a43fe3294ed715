/**
 * `node launch.mjs --print-service launchd|systemd`: the launcher's service templates
 * (host-contract/service-templates.ts) filled in for the machine it runs on.
 */
import { join, resolve } from 'node:path';
import {
  fillServiceTemplate,
  launchAgentTemplate,
  stablePort,
  systemdUnitTemplate,
  type Placeholder,
} from '../../host-contract/service-templates';
import { stateDir } from './state-dir';

/**
 * The filled service file for this machine, or undefined for an unknown kind. Throws a
 * ServiceFileError when a path or variable of this machine cannot be written into it safely
 * (e.g. a workspace path holding a newline, which would add a systemd directive).
 */
export function printServiceFile(
  kind: string,
  slug: string,
  version: string,
  heapMb: number | undefined,
  port: number,
  env: NodeJS.ProcessEnv,
): string | undefined {
  if (kind !== 'launchd' && kind !== 'systemd') return undefined;
  const launcher = resolve(process.argv[1] ?? 'launch.mjs');
  const values: Record<Placeholder, string> = {
    NODE: process.execPath,
    LAUNCHER: launcher,
    WORKSPACE: resolve(env['AGENTDEF_WORKSPACE'] || process.cwd()),
    PATH: env['PATH'] ?? '/usr/bin:/bin',
    PORT: String(port || stablePort(slug)),
    LOG_DIR: join(stateDir(env), slug),
  };
  const template =
    kind === 'launchd' ? launchAgentTemplate(slug, version, heapMb) : systemdUnitTemplate(slug, version, heapMb);
  return fillServiceTemplate(template, kind, values);
}
