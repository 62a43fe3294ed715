/**
 * Deploying a local-mac output: installs its service file, filled in for this machine (the
 * templates of host-contract/service-templates.ts, as `launch.mjs --print-service` fills them),
 * into the user's service folder: the LaunchAgent (`~/Library/LaunchAgents`, macOS) or the
 * systemd user unit (`$XDG_CONFIG_HOME/systemd/user`, else `~/.config/systemd/user`), or
 * `--into <dir>`. It does not load the service: it prints the `launchctl` / `systemctl --user`
 * lines that do.
 *
 * An installed file ends with a marker line holding the SHA-256 of everything above it. That is
 * how `--uninstall` (and a reinstall) knows agentdef wrote the file and nobody changed it since:
 * a file without a valid marker, or that is not a regular file, is refused, never removed or
 * overwritten.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import {
  fillServiceTemplate,
  isServiceSlug,
  launchAgentFile,
  ServiceFileError,
  stablePort,
  systemdUnitFile,
  type Placeholder,
} from '../../host-contract/service-templates';
import { LAUNCHER_MANIFEST, type LauncherManifest } from '../../host-contract/output-files';
import { stateDir } from '../../hosts/node/state-dir';
import { DEPLOY_EXIT, type DeployOptions, type ServiceKind } from '../../deploy/deploy-options';
import { displayPath, shellLine } from '../../deploy/display-path';
import { UNREGISTERED_DEPLOYMENT_ENV } from '../../runtime/agent-card';

/** The service kind of a platform: launchd on macOS, systemd on Linux; undefined elsewhere. */
export function serviceKindOf(platform: NodeJS.Platform): ServiceKind | undefined {
  return platform === 'darwin' ? 'launchd' : platform === 'linux' ? 'systemd' : undefined;
}

/** The user's own service folder for a kind. */
export function defaultServiceFolder(kind: ServiceKind, env: NodeJS.ProcessEnv): string {
  const home = env['HOME'] || homedir();
  if (kind === 'launchd') return join(home, 'Library', 'LaunchAgents');
  return join(env['XDG_CONFIG_HOME'] || join(home, '.config'), 'systemd', 'user');
}

const MARKER = /^(?:# |<!-- )agentdef-installed sha256=([0-9a-f]{64})(?: -->)?\n$/;

function digest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The service file with its marker line (a comment in either format) appended. */
export function withInstallMarker(content: string, kind: ServiceKind): string {
  const body = content.endsWith('\n') ? content : `${content}\n`;
  const hash = digest(body);
  return `${body}${kind === 'launchd' ? `<!-- agentdef-installed sha256=${hash} -->` : `# agentdef-installed sha256=${hash}`}\n`;
}

/** True when `text` is exactly what {@link withInstallMarker} wrote: a marker whose digest matches the rest. */
export function isInstalledByAgentdef(text: string): boolean {
  const cut = text.lastIndexOf('\n', text.length - 2);
  if (cut < 0) return false;
  const match = MARKER.exec(text.slice(cut + 1));
  return match !== null && match[1] === digest(text.slice(0, cut + 1));
}

export interface LocalServicePlan {
  kind: ServiceKind;
  slug: string;
  /** Where the file goes (absolute). */
  target: string;
  /** The file as it is installed (filled in, with the marker). */
  content: string;
}

/**
 * The filled service file with the unregistered-deployment setting added to its environment
 * (`deploy --allow-unregistered`): the launcher reads it and its served card says so.
 */
export function withUnregisteredMark(content: string, kind: ServiceKind): string {
  if (kind === 'systemd')
    return content.replace(/^(Environment="PATH=.*"\n)/m, `$1Environment="${UNREGISTERED_DEPLOYMENT_ENV}=1"\n`);
  return content.replace(
    /(\n {2}<key>EnvironmentVariables<\/key>\n {2}<dict>\n)/,
    `$1    <key>${UNREGISTERED_DEPLOYMENT_ENV}</key>\n    <string>1</string>\n`,
  );
}

/** The filled service file for this machine and where it goes, or a message. */
export function planLocalService(options: DeployOptions): LocalServicePlan | { error: string } {
  const env = options.env ?? process.env;
  const kind = options.service ?? serviceKindOf(options.platform ?? process.platform);
  if (kind === undefined)
    return {
      error: `no user service manager is known on ${options.platform ?? process.platform}: pass --service launchd or --service systemd`,
    };
  let manifest: LauncherManifest;
  try {
    manifest = JSON.parse(readFileSync(join(options.outDir, LAUNCHER_MANIFEST), 'utf8')) as LauncherManifest;
  } catch (error) {
    return { error: `cannot read ${LAUNCHER_MANIFEST}: ${(error as Error).message}; compile the agent again` };
  }
  const file = manifest.services?.[kind];
  const slug = typeof manifest.agent === 'string' ? manifest.agent.slice(0, manifest.agent.lastIndexOf('@')) : '';
  if (typeof file !== 'string' || typeof manifest.entry !== 'string' || slug === '') {
    return { error: `${LAUNCHER_MANIFEST} names no ${kind} service file; compile the agent again` };
  }
  // The service file's name is the agent's own (as the compiler names it), never one the manifest
  // makes up: a changed manifest cannot make a deploy replace or remove another agent's service,
  // write outside the folder, or carry a path or line break into the file and the messages.
  if (!isServiceSlug(slug))
    return { error: `${LAUNCHER_MANIFEST} names an agent that is not a valid slug; compile the agent again` };
  const expected = kind === 'launchd' ? launchAgentFile(slug) : systemdUnitFile(slug);
  if (file !== expected)
    return {
      error: `${LAUNCHER_MANIFEST} names the ${kind} service file "${basename(file)
        .replace(/[^\x20-\x7e]/g, '?')
        .slice(0, 80)}", not ${expected} for ${slug}; compile the agent again`,
    };
  let template: string;
  try {
    template = readFileSync(join(options.outDir, file), 'utf8');
  } catch (error) {
    return { error: `cannot read the ${kind} template ${file}: ${(error as Error).message}; compile the agent again` };
  }
  const values: Record<Placeholder, string> = {
    NODE: process.execPath,
    LAUNCHER: join(options.outDir, manifest.entry),
    WORKSPACE: options.workspaceRoot,
    PATH: env['PATH'] ?? '/usr/bin:/bin',
    PORT: String(options.port || stablePort(slug)),
    LOG_DIR: join(stateDir(env), slug),
  };
  try {
    const filled = fillServiceTemplate(template, kind, values);
    const content = withInstallMarker(
      options.unregistered === true ? withUnregisteredMark(filled, kind) : filled,
      kind,
    );
    return { kind, slug, target: join(options.into ?? defaultServiceFolder(kind, env), file), content };
  } catch (error) {
    if (error instanceof ServiceFileError) return { error: error.message };
    throw error;
  }
}

/** What is at the target now: nothing, a file agentdef installed, or something else (refused). */
function existing(target: string): 'none' | 'ours' | 'foreign' {
  try {
    if (!lstatSync(target).isFile()) return 'foreign';
  } catch {
    return 'none';
  }
  try {
    return isInstalledByAgentdef(readFileSync(target, 'utf8')) ? 'ours' : 'foreign';
  } catch {
    return 'foreign';
  }
}

function loadCommands(plan: LocalServicePlan, shownTarget: string): string[][] {
  const unit = basename(plan.target);
  return plan.kind === 'launchd'
    ? [['launchctl', 'load', shownTarget]]
    : [
        ['systemctl', '--user', 'daemon-reload'],
        ['systemctl', '--user', 'enable', '--now', unit],
      ];
}

function unloadCommands(plan: LocalServicePlan, shownTarget: string): string[][] {
  const unit = basename(plan.target);
  return plan.kind === 'launchd'
    ? [['launchctl', 'unload', shownTarget]]
    : [['systemctl', '--user', 'disable', '--now', unit]];
}

/**
 * Writes the service file: into a temporary file beside it that this call creates (`O_EXCL`, so
 * nothing already there, such as a symlink to another file, is ever written through), then renamed
 * into place. The temporary file is removed when anything fails. Answers why it failed, if it did.
 */
function writeServiceFile(plan: LocalServicePlan): string | undefined {
  const folder = join(plan.target, '..');
  try {
    mkdirSync(folder, { recursive: true });
  } catch (error) {
    return `its folder cannot be created (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
  const temp = `${plan.target}.agentdef-${process.pid}.tmp`;
  let fd: number;
  try {
    fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o644);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'EEXIST'
      ? `${basename(temp)} is in the way in its folder (left alone); move it away and try again`
      : `cannot create a file in its folder (${code ?? (error as Error).message})`;
  }
  try {
    try {
      writeSync(fd, plan.content);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, plan.target);
    return undefined;
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // already gone
    }
    return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  }
}

export async function deployLocalService(options: DeployOptions): Promise<number> {
  const plan = planLocalService(options);
  if ('error' in plan) {
    options.stderr(`error: ${plan.error}\n`);
    return DEPLOY_EXIT.usage;
  }
  const shown = displayPath(plan.target, options.workspaceRoot);
  const state = existing(plan.target);
  const commands = (list: string[][]) => list.map((words) => `  ${shellLine(words)}`).join('\n');
  if (options.uninstall) {
    if (state === 'none') {
      options.stdout(`nothing to remove: ${shown} does not exist\n`);
      return DEPLOY_EXIT.ok;
    }
    if (state === 'foreign') {
      options.stderr(`error: refusing to remove ${shown}: agentdef did not install it (or it was changed since)\n`);
      return DEPLOY_EXIT.failed;
    }
    if (options.dryRun) {
      options.stdout(
        `dry run: would remove ${shown}; stop the service first with:\n${commands(unloadCommands(plan, shown))}\n`,
      );
      return DEPLOY_EXIT.ok;
    }
    rmSync(plan.target);
    options.stdout(
      `removed ${shown}; if the service was loaded, stop it with:\n${commands(unloadCommands(plan, shown))}\n`,
    );
    return DEPLOY_EXIT.ok;
  }
  if (state === 'foreign') {
    options.stderr(
      `error: refusing to replace ${shown}: agentdef did not install it (or it was changed since); move it away first\n`,
    );
    return DEPLOY_EXIT.failed;
  }
  const verb = state === 'ours' ? 'replace' : 'install';
  if (options.dryRun) {
    options.stdout(
      `dry run: would ${verb} the ${plan.kind} service for ${plan.slug} at ${shown}, then load it with:\n${commands(loadCommands(plan, shown))}\n`,
    );
    return DEPLOY_EXIT.ok;
  }
  const problem = writeServiceFile(plan);
  if (problem !== undefined) {
    options.stderr(`error: cannot write ${shown}: ${problem}\n`);
    return DEPLOY_EXIT.failed;
  }
  options.stdout(
    `${verb === 'install' ? 'installed' : 'replaced'} the ${plan.kind} service for ${plan.slug} at ${shown}; load it with:\n${commands(loadCommands(plan, shown))}\n`,
  );
  return DEPLOY_EXIT.ok;
}
