/** Shared by the CLI command tests: a temp copy of the examples workspace and a captured run. */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIo } from '../io';

/**
 * A new temp workspace (an `nx.json`, a copy of the repository's examples, and the tools.json and
 * mcp.json that map their tools and MCP servers); returns its root.
 */
export function copyExamplesWorkspace(prefix: string): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const repoRoot = join(__dirname, '..', '..', '..');
  writeFileSync(join(root, 'nx.json'), '{}\n');
  cpSync(join(repoRoot, 'examples'), join(root, 'examples'), { recursive: true });
  for (const file of ['tools.json', 'mcp.json']) cpSync(join(repoRoot, file), join(root, file));
  return root;
}

/** Runs a command with captured output. */
export async function captureRun(command: (argv: string[], io: CliIo) => Promise<number>, argv: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const code = await command(argv, { cwd, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
}

/** Runs git in `cwd` as a fixed author and committer at `time`, with no system config and `cwd` as HOME. */
export function gitAt(cwd: string, time: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_DATE: time,
      GIT_COMMITTER_DATE: time,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.invalid',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.invalid',
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: cwd,
    },
  });
}
