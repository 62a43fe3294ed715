/**
 * Shared harness for the host e2e tests (e2e/local, e2e/hb3, e2e/cross-host): compiling an agent
 * into a temp folder, starting `agentdef run` or a launcher as a real process with an isolated
 * environment (HOME and XDG folders in a temp folder, no keychain unless a test provides one),
 * talking A2A to it with the @a2a-js/sdk client, and receipt keys.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClientFactory } from '@a2a-js/sdk/client';
import { Role } from '@a2a-js/sdk';
import { compileAgent } from '../../../plugin/compiler/compile';
import type { CompileTarget } from '../../../plugin/targets/targets';
import type { Receipt } from '../../../plugin/runtime/receipts';
import { generateReceiptKeyPair } from '../../../plugin/runtime/receipts';
import { parseStrictJson } from '../../../plugin/runtime/strict-json';
import { agentdefBin } from '../../support/run-cli';

export const REPO = join(__dirname, '..', '..', '..');
/** The built package's binary (e2e/support/run-cli.ts): `agentdef run` starts without compiling TypeScript. */
export const AGENTDEF_BIN = agentdefBin;

export interface Scratch {
  dir: string;
  path(...parts: string[]): string;
  cleanup(): void;
}

export function scratch(name: string): Scratch {
  const dir = mkdtempSync(join(tmpdir(), `agentdef-${name}-`));
  return { dir, path: (...parts) => join(dir, ...parts), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** An environment with nothing of the real user's: HOME and XDG folders below `home`, no keychain. */
export function isolatedEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  mkdirSync(home, { recursive: true });
  const keep = ['PATH', 'LANG', 'TZ', 'TMPDIR', 'SWC_NODE_PROJECT'];
  const env: NodeJS.ProcessEnv = {};
  for (const k of keep) if (process.env[k] !== undefined) env[k] = process.env[k];
  return {
    ...env,
    HOME: home,
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    AGENTDEF_KEYCHAIN: 'off',
    ...extra,
  };
}

export async function compileExample(
  slugOrFile: string,
  target: CompileTarget,
  outDir: string,
  workspaceRoot = REPO,
): Promise<void> {
  const file = slugOrFile.includes('/')
    ? slugOrFile
    : join(workspaceRoot, 'examples', slugOrFile, slugOrFile === 'pdf-extractor' ? 'agent.yaml' : 'agent.json');
  const result = await compileAgent({ file, workspaceRoot, target, outDir });
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (result.ioError || errors.length > 0 || !result.files)
    throw new Error(`compile failed: ${result.ioError ?? JSON.stringify(errors)}`);
}

export interface RunningHost {
  proc: ChildProcess;
  /** Resolves with the A2A base URL once the host serves (rejects if it exits first). */
  ready: Promise<string>;
  exited: Promise<number | null>;
  stdout(): string;
  stderr(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts a process and watches its stdout for the serving URL: the `host.ready` event of a host,
 * or (`readyLine: 'supervisor'`) the line `agentdef run` prints.
 */
export function startHostProcess(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; readyLine?: 'event' | 'supervisor' },
): RunningHost {
  const proc = spawn(process.execPath, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => proc.once('close', (code) => resolve(code)));
  const ready = new Promise<string>((resolve, reject) => {
    const look = () => {
      const found =
        options.readyLine === 'supervisor'
          ? /^.* serves A2A at (http:\/\/127\.0\.0\.1:\d+)\/\n/m.exec(out)
          : /"event":"host\.ready"[^\n]*"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(out);
      if (found) resolve(found[1]!);
    };
    proc.stdout!.on('data', (c: Buffer) => ((out += c.toString()), look()));
    proc.stderr!.on('data', (c: Buffer) => ((err += c.toString()), look()));
    void exited.then((code) => reject(new Error(`the host exited (${code}) before serving:\n${err}\n${out}`)));
  });
  ready.catch(() => undefined);
  return {
    proc,
    ready,
    exited,
    stdout: () => out,
    stderr: () => err,
    stop: async (signal = 'SIGTERM') => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
}

/** `agentdef run <outDir> ...args` as users run it. */
export function agentdefRun(outDir: string, args: string[], env: NodeJS.ProcessEnv, cwd = REPO): RunningHost {
  return startHostProcess([AGENTDEF_BIN, 'run', outDir, ...args], { cwd, env, readyLine: 'supervisor' });
}

/** A fake executable (a Node script) in `dir`. */
export function writeExecutable(dir: string, name: string, source: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, `#!${process.execPath}\n${source}\n`);
  chmodSync(path, 0o755);
  return path;
}

export async function receiptKeys(): Promise<{ privateJwk: JsonWebKey; publicJwk: JsonWebKey; secret: string }> {
  const keys = await generateReceiptKeyPair();
  return { ...keys, secret: JSON.stringify(keys.privateJwk) };
}

export function readReceipts(path: string): Receipt[] {
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  // Strict: a line with a duplicated property name is not a receipt (verifyReceiptText's rule).
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const parsed = parseStrictJson(l);
      if (!parsed.ok) throw new Error(`receipt line is not strict JSON: ${parsed.reason}`);
      return parsed.value as Receipt;
    });
}

type Content = { $case: 'text'; value: string } | { $case: 'data'; value: unknown };

/** Sends one message with the @a2a-js/sdk client and returns the finished task. */
export async function a2aAsk(
  baseUrl: string,
  content: string | Record<string, unknown>,
  messageId = `m-${Date.now()}`,
) {
  const client = await new ClientFactory().createFromUrl(baseUrl);
  const part: Content =
    typeof content === 'string' ? { $case: 'text', value: content } : { $case: 'data', value: content };
  const result = await client.sendMessage({
    tenant: '',
    message: {
      messageId,
      contextId: '',
      taskId: '',
      role: Role.ROLE_USER,
      parts: [{ content: part, metadata: undefined, filename: '', mediaType: '' }],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: undefined,
  });
  const task = result as Extract<typeof result, { status: unknown }>;
  const first = task.artifacts?.[0]?.parts?.[0]?.content;
  const answer =
    first?.$case === 'text' ? first.value : first?.$case === 'data' ? JSON.stringify(first.value) : undefined;
  return { task, answer, client };
}
