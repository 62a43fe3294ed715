/**
 * The process guard of a compiled Node host: only the host's own executables may start, so tool
 * code that reaches `child_process` at run time (`createRequire`, `process.getBuiltinModule`, a
 * computed `import()`) cannot run `curl`, `node -e` or a shell outside the network guard.
 *
 * - Every way Node starts a process ends in one of two native calls: `Process.prototype.spawn` of
 *   the `process_wrap` binding (`spawn`, `execFile`, `fork`, `exec`, a hand-made `ChildProcess`)
 *   or `spawn` of the `spawn_sync` binding (`spawnSync`, `execFileSync`, `execSync`). Both are
 *   replaced, and so is `ChildProcess.prototype.spawn` (a refusal before any pipe is made).
 *   `exec` and `execSync` (a shell) are refused outright: the host never uses them.
 * - A start is allowed only when it is exactly one of the host's launches: the executable, found
 *   the way the child's own `PATH` finds it, is the same file (real path) as the launch's; its
 *   base name is the launch's (a link named like the tool is fine, a link named `curl` is not);
 *   `argv0` is not overridden; the arguments are the launch's exactly; the working folder is the
 *   launch's; and every variable of the child's environment is one of the host's own (at arming)
 *   or one the launch declares, so `PATH`, `NODE_OPTIONS` or `LD_PRELOAD` cannot be changed; and a
 *   `NODE_OPTIONS` that opens a Node child's inspector (`--inspect` and kin) is refused even then.
 *   The file that starts is the real path that was checked (a name is not looked up twice), and
 *   it, and every file its arguments name (this entry for a quarantined child, an MCP server's
 *   script), is still the file it was at arming: one written or replaced since is refused.
 * - Until armed, only the keychain readers of secret-source.ts may start (`security`,
 *   `secret-tool` with their lookup arguments). `armSpawnGuard` gives the host's launches: native
 *   tools, stdio MCP servers, this entry as a quarantined child, the child launcher. The first
 *   list armed holds.
 * - `process.dlopen` (a native addon) is refused once armed.
 * Decisions use built-ins captured when this module is evaluated (before any tool module), and
 * what was checked is copied once, so a tool that patches `Set#has`, `path.resolve`,
 * `fs.realpathSync` or passes values that read differently twice cannot bend a verdict.
 * A refusal is a `RuntimeError('egress_blocked')` naming the executable's base name only.
 */
import childProcess from 'node:child_process';
import { accessSync, constants as fsConstants, realpathSync, statSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { posix } from 'node:path';
import { setAdd, setHas, stringIndexOf, stringSlice } from '../../runtime/captured-intrinsics';
import { RuntimeError } from '../../runtime/errors';

/** One start the host makes (or may make). */
export interface AllowedLaunch {
  /** The command as the host passes it to `spawn` (a name looked up on the child's `PATH`, or a path). */
  command: string;
  /** The arguments after `argv0`, exactly; `null` is any one argument (the keychain readers' secret name). */
  args: readonly (string | null)[];
  /** Variables the launch adds to the host's own environment (a stdio MCP server's `env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Its working folder; absent: the host's. */
  cwd?: string;
}

export interface SpawnArmOptions {
  /** Called with the base name of every refused executable. */
  onBlocked?: (executable: string) => void;
}

interface CheckedLaunch {
  command: string;
  /** The real path of the executable, when it was found at arming. */
  real: string | undefined;
  /** Base names a start may use: the command's, and its real file's. */
  names: ReadonlySet<string>;
  args: readonly (string | null)[];
  extraEnv: ReadonlySet<string>;
  /** Real path of the working folder; absent: the host's at arming. */
  cwd: string | undefined;
  /** The executable and the files its arguments name, each with its identity at arming (changed or replaced since: refused). */
  files: readonly { path: string; identity: string }[];
}

interface SpawnGuardState {
  installed: boolean;
  armed: boolean;
  launches: readonly CheckedLaunch[];
  /** `NAME=value` pairs of the host's environment when armed (undefined before: the keychain readers inherit it). */
  hostEnv: ReadonlySet<string> | undefined;
  hostCwd: string | undefined;
  onBlocked: (executable: string) => void;
}

const state: SpawnGuardState = {
  installed: false,
  armed: false,
  launches: [],
  hostEnv: undefined,
  hostCwd: undefined,
  onBlocked: () => undefined,
};

// Captured now: a tool module evaluated later cannot change what these are.
const apply = Reflect.apply;
const ownKeys = Reflect.ownKeys;
const defineProperty = Object.defineProperty;
const isArray = Array.isArray;
const NativeSet = Set;
const objectCreate = Object.create;
// The native one: the JavaScript `realpathSync` looks `path.resolve` up at every call.
const realpath = realpathSync.native;
const stat = statSync;
const access = accessSync;
const resolvePath = posix.resolve;
const X_OK = fsConstants.X_OK;
const S_IFMT = fsConstants.S_IFMT;
const S_IFREG = fsConstants.S_IFREG;
const S_IFMT_BIG = BigInt(S_IFMT);
const S_IFREG_BIG = BigInt(S_IFREG);
const processCwd = process.cwd;

function locked(owner: object, name: string | symbol, value: unknown): void {
  defineProperty(owner, name, { value, writable: false, configurable: false, enumerable: true });
}

/** Appends without `Array.prototype.push` (or a setter a tool put on `Array.prototype`). */
function append<T>(list: T[], value: T): void {
  defineProperty(list, list.length, { value, writable: true, configurable: true, enumerable: true });
}

function baseName(path: string): string {
  let end = path.length;
  while (end > 1 && path[end - 1] === '/') end--;
  const trimmed = stringSlice(path, 0, end);
  let slash = -1;
  for (let i = 0; i < trimmed.length; i++) if (trimmed[i] === '/') slash = i;
  return stringSlice(trimmed, slash + 1);
}

/** The name shown in a refusal: the base name, printable characters only, bounded. */
function shownName(file: unknown): string {
  if (typeof file !== 'string') return 'an executable';
  let out = '';
  const name = baseName(file);
  for (let i = 0; i < name.length && out.length < 80; i++) {
    const code = name.charCodeAt(i);
    out += code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0) ? '?' : name[i];
  }
  return out === '' ? 'an executable' : out;
}

function blocked(file: unknown): RuntimeError {
  const name = shownName(file);
  try {
    state.onBlocked(name);
  } catch {
    // logging never changes the verdict
  }
  return new RuntimeError(
    'egress_blocked',
    `egress_blocked: starting ${name} is refused in an agentdef host (only the host's own executables may run): declare a native tool instead`,
  );
}

/** The real path of an executable regular file, or undefined. */
function executableReal(path: string): string | undefined {
  try {
    const real = realpath(path);
    if ((stat(real).mode & S_IFMT) !== S_IFREG) return undefined;
    access(real, X_OK);
    return real;
  } catch {
    return undefined;
  }
}

/** The real path of the file a start of `file` runs: a path is taken from `cwd`, a name is looked up on the child's `PATH` (libuv's default without one). */
function resolveExecutable(file: string, cwd: string, pathValue: string | undefined): string | undefined {
  if (file === '') return undefined;
  if (stringIndexOf(file, '/') >= 0) return executableReal(resolvePath(cwd, file));
  const path = pathValue ?? '/usr/local/bin:/usr/bin:/bin';
  let start = 0;
  while (start <= path.length) {
    let end = stringIndexOf(path, ':', start);
    if (end < 0) end = path.length;
    const dir = stringSlice(path, start, end);
    const found = executableReal(dir === '' ? resolvePath(cwd, file) : resolvePath(cwd, dir, file));
    if (found !== undefined) return found;
    start = end + 1;
  }
  return undefined;
}

/** Which file is at `path`, as it is now: device, inode, size, modification and change times (a write or a rename changes it; `ctime` cannot be set back). */
function fileIdentity(path: string): string | undefined {
  try {
    const info = stat(path, { bigint: true });
    if ((info.mode & S_IFMT_BIG) !== S_IFREG_BIG) return undefined;
    return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
  } catch {
    return undefined;
  }
}

function unchanged(files: CheckedLaunch['files']): boolean {
  for (let i = 0; i < files.length; i++) if (fileIdentity(files[i]!.path) !== files[i]!.identity) return false;
  return true;
}

function realFolder(path: string): string | undefined {
  try {
    return realpath(path);
  } catch {
    return undefined;
  }
}

function hasNul(text: string): boolean {
  return stringIndexOf(text, '\u0000') >= 0;
}

/** What Node hands the native spawn, read once: strings only, copied into fresh arrays. */
interface StartRequest {
  file: string;
  args: string[];
  envPairs: string[] | undefined;
  cwd: string | undefined;
}

function readRequest(options: unknown): StartRequest | { refused: unknown } {
  if (options === null || typeof options !== 'object') return { refused: undefined };
  const source = options as Record<string, unknown>;
  const file = source['file'];
  const rawArgs = source['args'];
  const rawEnv = source['envPairs'];
  const cwd = source['cwd'];
  if (typeof file !== 'string' || hasNul(file)) return { refused: file };
  if (!isArray(rawArgs)) return { refused: file };
  const args: string[] = [];
  for (let i = 0; i < rawArgs.length; i++) {
    const arg: unknown = rawArgs[i];
    if (typeof arg !== 'string' || hasNul(arg)) return { refused: file };
    append(args, arg);
  }
  let envPairs: string[] | undefined;
  if (rawEnv !== undefined && rawEnv !== null) {
    if (!isArray(rawEnv)) return { refused: file };
    envPairs = [];
    for (let i = 0; i < rawEnv.length; i++) {
      const pair: unknown = rawEnv[i];
      if (typeof pair !== 'string' || hasNul(pair)) return { refused: file };
      append(envPairs, pair);
    }
  }
  if (cwd !== undefined && cwd !== null && (typeof cwd !== 'string' || hasNul(cwd))) return { refused: file };
  return { file, args, envPairs, cwd: typeof cwd === 'string' && cwd !== '' ? cwd : undefined };
}

function pathOf(envPairs: readonly string[] | undefined): string | undefined {
  if (envPairs === undefined) return process.env['PATH'];
  let found: string | undefined;
  for (let i = 0; i < envPairs.length; i++)
    if (stringSlice(envPairs[i]!, 0, 5) === 'PATH=') found = stringSlice(envPairs[i]!, 5);
  return found;
}

function argsMatch(given: readonly string[], wanted: readonly (string | null)[]): boolean {
  // given[0] is argv0: it must be the file as started (no `argv0` override).
  if (given.length !== wanted.length + 1) return false;
  for (let i = 0; i < wanted.length; i++) {
    const want = wanted[i];
    if (want !== null && want !== given[i + 1]) return false;
  }
  return true;
}

/** Whether `NODE_OPTIONS` opens a Node child's inspector (`--inspect`, `--inspect-brk`, `--inspect-wait`, with or without `=host:port`). */
function opensInspector(options: string): boolean {
  for (const flag of ['--inspect', '--inspect-brk', '--inspect-wait']) {
    let at = stringIndexOf(options, flag);
    while (at >= 0) {
      const before = at === 0 ? ' ' : options[at - 1]!;
      const after = options[at + flag.length] ?? ' ';
      if (
        (before === ' ' || before === '\t' || before === '"' || before === "'") &&
        (after === ' ' || after === '\t' || after === '=' || after === '"' || after === "'")
      )
        return true;
      at = stringIndexOf(options, flag, at + 1);
    }
  }
  return false;
}

function envMatches(envPairs: readonly string[] | undefined, launch: CheckedLaunch): boolean {
  if (state.hostEnv === undefined) return true; // not armed: only the keychain readers, before any tool code (and a host started with an inspector refuses to start)
  // Node always lists the child's environment; without one the child would inherit the process's, which tool code can change.
  if (envPairs === undefined) return false;
  const seen = new NativeSet<string>();
  for (let i = 0; i < envPairs.length; i++) {
    const pair = envPairs[i]!;
    const eq = stringIndexOf(pair, '=');
    const name = eq < 0 ? pair : stringSlice(pair, 0, eq);
    if (setHas(seen, name)) return false; // one value per variable
    setAdd(seen, name);
    if (name === 'NODE_OPTIONS' && opensInspector(stringSlice(pair, eq + 1))) return false;
    if (!setHas(state.hostEnv, pair) && !setHas(launch.extraEnv, pair)) return false;
  }
  return true;
}

/**
 * The verdict on a start: the file to run (the real path checked, or the name as given when the
 * host's own launch is not installed: Node then reports ENOENT as it would without the guard), or a refusal.
 */
function verdict(options: unknown): { file: string; request: StartRequest } | { refused: unknown } {
  const request = readRequest(options);
  if ('refused' in request) return request;
  const { file, args, envPairs, cwd } = request;
  if (args.length === 0 || args[0] !== file) return { refused: file };
  const hostCwd = apply(processCwd, process, []) as string;
  const startCwd = cwd === undefined ? hostCwd : resolvePath(hostCwd, cwd);
  const realCwd = realFolder(startCwd);
  const real = resolveExecutable(file, startCwd, pathOf(envPairs));
  const name = baseName(file);
  const launches = state.launches;
  for (let i = 0; i < launches.length; i++) {
    const launch = launches[i]!;
    if (!setHas(launch.names, name) || !argsMatch(args, launch.args) || !envMatches(envPairs, launch)) continue;
    const wantedCwd = launch.cwd ?? state.hostCwd;
    if (wantedCwd !== undefined && realCwd !== wantedCwd) continue;
    if (real !== undefined && real === launch.real)
      return unchanged(launch.files) ? { file: real, request } : { refused: file };
    if (real === undefined && launch.real === undefined && file === launch.command) return { file, request };
  }
  return { refused: file };
}

/** A copy of Node's options with what was checked written in (no prototype: nothing inherited is read). */
function checkedOptions(options: object, file: string, request: StartRequest): Record<string, unknown> {
  const copy = objectCreate(null) as Record<string, unknown>;
  const keys = ownKeys(options);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    defineProperty(copy, key, {
      value: (options as Record<string | symbol, unknown>)[key],
      writable: true,
      configurable: true,
      enumerable: true,
    });
  }
  // Exactly what was checked: a getter read again for the copy may not add a folder or an environment.
  copy['file'] = file;
  copy['args'] = request.args;
  if (request.envPairs !== undefined) copy['envPairs'] = request.envPairs;
  else delete copy['envPairs'];
  if (request.cwd !== undefined) copy['cwd'] = request.cwd;
  else delete copy['cwd'];
  return copy;
}

function checkLaunch(launch: AllowedLaunch, hostPath: string | undefined, hostCwd: string): CheckedLaunch {
  const cwd = launch.cwd === undefined ? hostCwd : resolvePath(hostCwd, launch.cwd);
  const path = launch.env?.['PATH'] ?? hostPath;
  const real = resolveExecutable(launch.command, cwd, path);
  const names = new NativeSet<string>([baseName(launch.command)]);
  if (real !== undefined) names.add(baseName(real));
  const extraEnv = new NativeSet<string>();
  for (const [name, value] of Object.entries(launch.env ?? {}))
    if (value !== undefined) extraEnv.add(`${name}=${value}`);
  const files: { path: string; identity: string }[] = [];
  for (const path of [
    real,
    ...launch.args.map((arg) => (arg === null || arg === '' ? undefined : resolvePath(cwd, arg))),
  ]) {
    const identity = path === undefined ? undefined : fileIdentity(path);
    if (path !== undefined && identity !== undefined) files.push({ path, identity });
  }
  return {
    command: launch.command,
    real,
    names,
    args: [...launch.args],
    extraEnv,
    cwd: launch.cwd === undefined ? undefined : realFolder(cwd),
    files,
  };
}

/** The keychain readers of secret-source.ts, allowed until the guard is armed. */
const KEYCHAIN_READERS: AllowedLaunch[] = [
  { command: 'security', args: ['find-generic-password', '-s', 'agentdef', '-a', null, '-w'] },
  { command: 'secret-tool', args: ['lookup', 'service', 'agentdef', 'name', null] },
];

interface ProcessWrap {
  Process: { prototype: { spawn: (this: unknown, options: unknown) => number } };
}
interface SpawnSyncBinding {
  spawn: (options: unknown) => unknown;
}

function guardNativeSpawns(binding: (name: string) => unknown): void {
  const processWrap = binding('process_wrap') as ProcessWrap;
  const proto = processWrap.Process.prototype;
  const originalSpawn = proto.spawn;
  locked(proto, 'spawn', function spawn(this: unknown, options: unknown): number {
    const checked = verdict(options);
    if ('refused' in checked) throw blocked(checked.refused);
    return apply(originalSpawn, this, [checkedOptions(options as object, checked.file, checked.request)]) as number;
  });
  const spawnSync = binding('spawn_sync') as SpawnSyncBinding;
  const originalSpawnSync = spawnSync.spawn;
  locked(spawnSync, 'spawn', function spawn(options: unknown): unknown {
    const checked = verdict(options);
    if ('refused' in checked) throw blocked(checked.refused);
    return apply(originalSpawnSync, spawnSync, [checkedOptions(options as object, checked.file, checked.request)]);
  });
}

function guardChildProcessModule(): void {
  // A refusal before Node makes the child's pipes (the native spawn above refuses it all the same).
  const proto = childProcess.ChildProcess.prototype as unknown as {
    spawn: (this: unknown, options: unknown) => unknown;
  };
  const originalSpawn = proto.spawn;
  locked(proto, 'spawn', function spawn(this: unknown, options: unknown): unknown {
    const checked = verdict(options);
    if ('refused' in checked) throw blocked(checked.refused);
    return apply(originalSpawn, this, [options]);
  });
  // A shell runs whatever its command line says: the host never starts one.
  const refuseShell = function refused(): never {
    throw blocked('sh');
  };
  locked(childProcess, 'exec', refuseShell);
  locked(childProcess, 'execSync', refuseShell);
}

function guardAddons(): void {
  const originalDlopen = process.dlopen;
  locked(process, 'dlopen', function dlopen(this: unknown, ...args: unknown[]): unknown {
    if (state.armed)
      throw new RuntimeError(
        'egress_blocked',
        'egress_blocked: process.dlopen (a native addon) is refused in an agentdef host: declare a native tool instead',
      );
    return apply(originalDlopen, this, args);
  });
}

/**
 * Installs the guard, given `process.binding` as it was (the network guard refuses the raw
 * bindings to everyone else). Until armed, only the keychain readers may start. Idempotent.
 */
export function installSpawnGuard(
  binding: (name: string) => unknown = (process as unknown as { binding: (name: string) => unknown }).binding.bind(
    process,
  ),
): void {
  if (state.installed) return;
  state.installed = true;
  const hostCwd = apply(processCwd, process, []) as string;
  state.launches = KEYCHAIN_READERS.map((launch) => checkLaunch(launch, process.env['PATH'], hostCwd));
  guardNativeSpawns(binding);
  guardChildProcessModule();
  guardAddons();
  syncBuiltinESMExports();
}

export function spawnGuardInstalled(): boolean {
  return state.installed;
}

/**
 * Gives the installed guard the host's launches; from now on only they may start (the keychain
 * readers no longer). The first call wins; without the guard, nothing happens.
 */
export function armSpawnGuard(launches: readonly AllowedLaunch[], options: SpawnArmOptions = {}): void {
  if (!state.installed || state.armed) return;
  const hostCwd = apply(processCwd, process, []) as string;
  const hostEnv = new NativeSet<string>();
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) hostEnv.add(`${name}=${value}`);
  state.launches = launches.map((launch) => checkLaunch(launch, process.env['PATH'], hostCwd));
  state.hostEnv = hostEnv;
  state.hostCwd = realFolder(hostCwd);
  const onBlocked = options.onBlocked;
  state.onBlocked = (executable) => onBlocked?.(executable);
  state.armed = true;
}
