/**
 * Native tools: executables the host runs for a `native` tool of the inventory. The protocol is
 * agentdef's own and small: the executable is started with no arguments, gets the call's
 * arguments as one JSON object on stdin, and answers on stdout (JSON, or plain text); exit code 0
 * means success, anything else is a `tool_failed` whose message is the first line of stderr.
 * Executables are found in `AGENTDEF_NATIVE_BIN` (a path list), then `/opt/agentdef/tools` (where
 * the HB3 image installs them), then `PATH`. A missing one stops the host at start. The
 * executable sees the paths and locale of the host's environment, never its secrets.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { ToolHandler } from '../../runtime/agent-loop';
import { RuntimeError } from '../../runtime/errors';
import { IMAGE_TOOLS_DIR } from '../../host-contract/container-contract';
import { HostStartError } from './host-error';
import type { HostNativeTool } from '../../host-contract/node-host-spec';

export function nativeSearchPath(env: NodeJS.ProcessEnv): string[] {
  return [
    ...(env['AGENTDEF_NATIVE_BIN'] ?? '').split(delimiter),
    IMAGE_TOOLS_DIR,
    ...(env['PATH'] ?? '').split(delimiter),
  ].filter((d) => d !== '');
}

export function findExecutable(binary: string, dirs: readonly string[]): string | undefined {
  for (const dir of dirs) {
    const path = join(dir, binary);
    try {
      if (!statSync(path).isFile()) continue;
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** What a native tool may see of the host's environment: paths and locale, never a secret. */
const SAFE_ENV = /^(PATH|HOME|USER|LOGNAME|LANG|LC_[A-Z]+|TZ|TMPDIR|TEMP|TMP|SYSTEMROOT)$/;

export function nativeToolEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env)) if (SAFE_ENV.test(key) && value !== undefined) out[key] = value;
  return out;
}

function runExecutable(
  path: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
  maxOutputBytes: number,
  env: NodeJS.ProcessEnv,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const child = spawn(path, [], { stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true, env });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    const onAbort = () => child.kill('SIGKILL');
    signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= maxOutputBytes) out.push(c);
    });
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.stdin.on('error', () => undefined);
    child.on('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      reject(
        new RuntimeError(
          'tool_failed',
          `native tool could not start (${(error as NodeJS.ErrnoException).code ?? error.name})`,
        ),
      );
    });
    child.on('close', (code, killedBy) => {
      signal.removeEventListener('abort', onAbort);
      if (signal.aborted) return reject(signal.reason ?? new RuntimeError('aborted', 'the run was aborted'));
      if (code !== 0) {
        const first =
          Buffer.concat(err)
            .toString('utf8')
            .split('\n')
            .find((l) => l.trim() !== '') ?? (killedBy ? `killed by ${killedBy}` : `exit code ${code}`);
        return reject(new RuntimeError('tool_failed', first.trim().slice(0, 300)));
      }
      if (size > maxOutputBytes)
        return reject(new RuntimeError('tool_failed', `output larger than ${maxOutputBytes} bytes`));
      const text = Buffer.concat(out).toString('utf8');
      try {
        resolve(JSON.parse(text) as unknown);
      } catch {
        resolve(text.replace(/\n$/, ''));
      }
    });
    child.stdin.end(JSON.stringify(args));
  });
}

/** Handlers for the native tools, by tool id; throws a start error naming the first one missing. */
export function nativeToolHandlers(
  tools: readonly HostNativeTool[],
  env: NodeJS.ProcessEnv,
  agentOf: (toolId: string) => string,
  maxOutputBytes = 4 * 1024 * 1024,
): Record<string, ToolHandler> {
  const dirs = nativeSearchPath(env);
  const handlers: Record<string, ToolHandler> = {};
  for (const tool of tools) {
    const path = findExecutable(tool.binary, dirs);
    if (!path) {
      throw new HostStartError(
        `native tool "${tool.toolId}" of ${agentOf(tool.toolId)} needs the executable "${tool.binary}", which is not installed: put it in the image's native-tools/ folder (HB3), or in a folder named by AGENTDEF_NATIVE_BIN or on PATH (local runs)`,
      );
    }
    const toolEnv = nativeToolEnv(env);
    handlers[tool.toolId] = (args, context) => runExecutable(path, args, context.signal, maxOutputBytes, toolEnv);
  }
  return handlers;
}
