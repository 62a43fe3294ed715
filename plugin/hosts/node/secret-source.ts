/**
 * The local secret source: the OS keychain first, then the environment.
 * - macOS: `security find-generic-password -s agentdef -a <NAME> -w`;
 * - Linux: `secret-tool lookup service agentdef name <NAME>` (libsecret);
 * - everywhere: the environment variable `AGENTDEF_SECRET_<NAME>`.
 * Values are returned to the caller only: never logged, never written. A keychain tool that is
 * missing or has no entry falls through to the environment.
 */
import { execFile } from 'node:child_process';

export const KEYCHAIN_SERVICE = 'agentdef';
export const SECRET_ENV_PREFIX = 'AGENTDEF_SECRET_';

export type ExecText = (command: string, args: string[]) => Promise<string | undefined>;

export interface SecretSourceOptions {
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  /** Runs a command and resolves its stdout, or undefined when it fails (tests replace it). */
  exec?: ExecText;
  /** `off` skips the keychain (containers, CI). Default: the `AGENTDEF_KEYCHAIN` variable, else on. */
  keychain?: 'on' | 'off';
}

export interface SecretSource {
  /** The value of a secret, or undefined when neither the keychain nor the environment has it. */
  get(name: string): Promise<string | undefined>;
}

/** The keychain command for a secret on this platform, or undefined where there is none. */
export function keychainCommand(
  platform: NodeJS.Platform,
  name: string,
): { command: string; args: string[] } | undefined {
  if (platform === 'darwin')
    return { command: 'security', args: ['find-generic-password', '-s', KEYCHAIN_SERVICE, '-a', name, '-w'] };
  if (platform === 'linux' || platform === 'freebsd' || platform === 'openbsd')
    return { command: 'secret-tool', args: ['lookup', 'service', KEYCHAIN_SERVICE, 'name', name] };
  return undefined;
}

/** How a person stores a secret where this host will find it (one line). */
export function howToProvideSecret(name: string, platform: NodeJS.Platform = process.platform): string {
  const env = `or set ${SECRET_ENV_PREFIX}${name}`;
  if (platform === 'darwin')
    return `add it with \`security add-generic-password -s ${KEYCHAIN_SERVICE} -a ${name} -w\` ${env}`;
  if (platform === 'linux')
    return `add it with \`secret-tool store --label=${KEYCHAIN_SERVICE} service ${KEYCHAIN_SERVICE} name ${name}\` ${env}`;
  return env.replace(/^or /, '');
}

const execText: ExecText = (command, args) =>
  new Promise((resolve) => {
    try {
      execFile(command, args, { timeout: 10_000, windowsHide: true, encoding: 'utf8' }, (error, stdout) =>
        resolve(error ? undefined : stdout),
      );
    } catch {
      resolve(undefined);
    }
  });

export function createSecretSource(options: SecretSourceOptions = {}): SecretSource {
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  const exec = options.exec ?? execText;
  const keychain = options.keychain ?? (env['AGENTDEF_KEYCHAIN'] === 'off' ? 'off' : 'on');
  const cache = new Map<string, string | undefined>();
  return {
    async get(name) {
      if (cache.has(name)) return cache.get(name);
      let value: string | undefined;
      const command = keychain === 'on' ? keychainCommand(platform, name) : undefined;
      if (command) {
        const out = await exec(command.command, command.args);
        // `security -w` and `secret-tool lookup` print the value followed by at most one newline.
        const trimmed = out?.replace(/\r?\n$/, '');
        if (trimmed) value = trimmed;
      }
      if (value === undefined) {
        const fromEnv = env[`${SECRET_ENV_PREFIX}${name}`];
        if (typeof fromEnv === 'string' && fromEnv !== '') value = fromEnv;
      }
      cache.set(name, value);
      return value;
    },
  };
}

/** A secret source over plain environment variables named like the bindings (containers). */
export function envSecretSource(env: NodeJS.ProcessEnv = process.env): SecretSource {
  return { get: async (name) => (typeof env[name] === 'string' && env[name] !== '' ? env[name] : undefined) };
}
