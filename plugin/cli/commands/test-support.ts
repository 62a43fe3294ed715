/** Shared by the CLI command tests: a temp copy of the examples workspace and a captured run. */
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIo } from '../io';

/** A new temp workspace (an `nx.json` and a copy of the repository's examples); returns its root. */
export function copyExamplesWorkspace(prefix: string): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(root, 'nx.json'), '{}\n');
  cpSync(join(__dirname, '..', '..', '..', 'examples'), join(root, 'examples'), { recursive: true });
  return root;
}

/** Runs a command with captured output. */
export async function captureRun(command: (argv: string[], io: CliIo) => Promise<number>, argv: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const code = await command(argv, { cwd, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
}
