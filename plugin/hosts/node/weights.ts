/**
 * Tuned checkpoints, read-only: before serving, the host opens every checkpoint folder its nodes
 * pin (below the weights root, `/weights` in the container, `AGENTDEF_WEIGHTS_ROOT` when mapped to
 * a local folder), reads every file, and computes the folder's digest: SHA-256 over the sorted
 * list of `<relative path>\0<sha-256 of the file>\n`. A missing or empty folder stops the start;
 * a digest that differs from the one in `weights.lock.json`, when the lock names one, too.
 */
import { createHash } from 'node:crypto';
import { createReadStream, readdirSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { CONTAINER_WEIGHTS_ROOT } from '../../host-contract/container-contract';
import { HostStartError } from './host-error';
import type { HostCheckpoint } from '../../host-contract/node-host-spec';

export interface LoadedCheckpoint {
  checkpointId: string;
  path: string;
  files: number;
  bytes: number;
  digest: string;
}

function listFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  )) {
    const rel = prefix ? posix.join(prefix, entry.name) : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(join(dir, entry.name), rel));
    else if (entry.isFile()) out.push(rel);
  }
  return out;
}

function fileDigest(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (c) => hash.update(c))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}

export function weightsRoot(env: NodeJS.ProcessEnv): string {
  return env['AGENTDEF_WEIGHTS_ROOT'] || CONTAINER_WEIGHTS_ROOT;
}

function hint(checkpoint: HostCheckpoint): string {
  return `mount it read-only at ${posix.join(CONTAINER_WEIGHTS_ROOT, checkpoint.path)} (HB3), or pass --weights <folder> holding ${checkpoint.path}/ (agentdef run)`;
}

/** The checkpoint's folder below the weights root; throws a start error when there is none. */
export function checkpointFolder(root: string, checkpoint: HostCheckpoint, agent: string): string {
  const dir = join(root, ...checkpoint.path.split('/'));
  try {
    if (!statSync(dir).isDirectory()) throw new Error('not a folder');
  } catch {
    throw new HostStartError(
      `checkpoint ${checkpoint.checkpointId} of ${agent} is missing: no folder at ${dir}; ${hint(checkpoint)}`,
    );
  }
  return dir;
}

export async function loadCheckpoint(
  root: string,
  checkpoint: HostCheckpoint,
  agent: string,
  expectedDigest?: string,
): Promise<LoadedCheckpoint> {
  const dir = checkpointFolder(root, checkpoint, agent);
  const files = listFiles(dir);
  if (files.length === 0)
    throw new HostStartError(
      `checkpoint ${checkpoint.checkpointId} of ${agent} is empty at ${dir}; ${hint(checkpoint)}`,
    );
  const lines: string[] = [];
  let bytes = 0;
  for (const file of files) {
    const full = join(dir, ...file.split('/'));
    bytes += statSync(full).size;
    lines.push(`${file}\0${await fileDigest(full)}\n`);
  }
  const digest = `sha-256:${createHash('sha256').update(lines.join('')).digest('hex')}`;
  if (expectedDigest && expectedDigest !== digest) {
    throw new HostStartError(
      `checkpoint ${checkpoint.checkpointId} of ${agent} at ${dir} has digest ${digest}, but weights.lock.json pins ${expectedDigest}: mount the pinned checkpoint`,
    );
  }
  return { checkpointId: checkpoint.checkpointId, path: checkpoint.path, files: files.length, bytes, digest };
}
