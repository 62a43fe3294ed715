import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HostStartError } from './host-error';
import { loadCheckpoint, weightsRoot } from './weights';

const root = mkdtempSync(join(tmpdir(), 'agentdef-weights-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const checkpoint = { checkpointId: 'ckpt:acme/x/1', path: 'acme/x/1' };
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('checkpoint folders', () => {
  it('reads every file and digests the folder from relative paths and file digests', async () => {
    const dir = join(root, 'acme', 'x', '1');
    mkdirSync(join(dir, 'sub'), { recursive: true });
    writeFileSync(join(dir, 'adapter_config.json'), '{"r":8}');
    writeFileSync(join(dir, 'sub', 'weights.bin'), 'abc');
    const loaded = await loadCheckpoint(root, checkpoint, 'x@1.0.0');
    const expected = `sha-256:${sha(`adapter_config.json\0${sha('{"r":8}')}\nsub/weights.bin\0${sha('abc')}\n`)}`;
    expect(loaded).toEqual({ checkpointId: 'ckpt:acme/x/1', path: 'acme/x/1', files: 2, bytes: 10, digest: expected });
    writeFileSync(join(dir, 'sub', 'weights.bin'), 'abd');
    expect((await loadCheckpoint(root, checkpoint, 'x@1.0.0')).digest).not.toBe(expected);
    await expect(loadCheckpoint(root, checkpoint, 'x@1.0.0', expected)).rejects.toThrow(
      /weights\.lock\.json pins sha-256:/,
    );
  });

  it('stops the start on a missing or empty checkpoint, saying where it must be', async () => {
    await expect(loadCheckpoint(root, { checkpointId: 'ckpt:acme/y', path: 'acme/y' }, 'y@1.0.0')).rejects.toThrow(
      HostStartError,
    );
    await expect(loadCheckpoint(root, { checkpointId: 'ckpt:acme/y', path: 'acme/y' }, 'y@1.0.0')).rejects.toThrow(
      `checkpoint ckpt:acme/y of y@1.0.0 is missing: no folder at ${join(root, 'acme', 'y')}; mount it read-only at /weights/acme/y (HB3), or pass --weights <folder> holding acme/y/ (agentdef run)`,
    );
    mkdirSync(join(root, 'empty'));
    await expect(loadCheckpoint(root, { checkpointId: 'ckpt:empty', path: 'empty' }, 'e@1.0.0')).rejects.toThrow(
      /is empty/,
    );
  });

  it('takes the weights root from AGENTDEF_WEIGHTS_ROOT, else /weights', () => {
    expect(weightsRoot({})).toBe('/weights');
    expect(weightsRoot({ AGENTDEF_WEIGHTS_ROOT: '/tmp/w' })).toBe('/tmp/w');
  });
});
