/**
 * Attacks on the guarded read (readSourceBytes), in particular on its short path for files that
 * are no link (lstat, open with O_NOFOLLOW | O_NONBLOCK, fstat, the kernel's name of the open
 * file): links out of the workspace (the file itself, or a folder of its path), FIFOs, devices,
 * oversized files, and each of them swapped in between the checks and the open. Nothing outside
 * the workspace is ever read, nothing blocks, and every refusal says what the full path says.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { readSourceBytes, resolveFolder } from './read-source';

/** Runs once, right after the next `lstatSync` of `target` returned: swaps the file under the check. */
let afterLstat: { target: string; swap: () => void } | undefined;
let readlinkFails = false;

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  return {
    ...actual,
    openSync: vi.fn(actual.openSync),
    readSync: vi.fn(actual.readSync),
    readlinkSync: vi.fn((...args: Parameters<typeof actual.readlinkSync>) => {
      if (readlinkFails && String(args[0]).startsWith('/proc/self/fd/')) {
        throw Object.assign(new Error('no /proc'), { code: 'ENOENT' });
      }
      return actual.readlinkSync(...args);
    }),
    lstatSync: vi.fn((...args: Parameters<typeof actual.lstatSync>) => {
      const stats = actual.lstatSync(...args);
      if (afterLstat !== undefined && args[0] === afterLstat.target) {
        const { swap } = afterLstat;
        afterLstat = undefined;
        swap();
      }
      return stats;
    }),
  };
});

const SECRET = 'outside-secret-content';

describe('readSourceBytes under attack', () => {
  let base: string;
  let workspace: string;
  let outside: string;
  let outsideFile: string;

  beforeAll(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'agentdef-read-guard-'));
    workspace = path.join(base, 'workspace');
    outside = path.join(base, 'outside');
    fs.mkdirSync(path.join(workspace, 'agents', 'a'), { recursive: true });
    fs.mkdirSync(outside, { recursive: true });
    fs.writeFileSync(path.join(workspace, 'package.json'), '{}');
    outsideFile = path.join(outside, 'agent.json');
    fs.writeFileSync(outsideFile, `{"s": "${SECRET}"}`);
  });
  afterAll(() => {
    fs.rmSync(base, { recursive: true, force: true });
  });
  beforeEach(() => {
    vi.mocked(fs.openSync).mockClear();
    vi.mocked(fs.readSync).mockClear();
    afterLstat = undefined;
  });

  /** Every way the read is called: the root given resolved, given as a path, or found from the file. */
  const reads = (abs: string, file: string, maxBytes?: number) => {
    const folder = resolveFolder(workspace);
    expect(folder).toBeDefined();
    return [
      readSourceBytes(abs, file, maxBytes, folder),
      readSourceBytes(abs, file, maxBytes, workspace),
      readSourceBytes(abs, file, maxBytes),
    ];
  };
  const text = (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : Buffer.from(bytes).toString());
  const fresh = (name: string): { abs: string; file: string } => {
    const folder = path.join(workspace, 'agents', name);
    fs.rmSync(folder, { recursive: true, force: true });
    fs.mkdirSync(folder, { recursive: true });
    return { abs: path.join(folder, 'agent.json'), file: `agents/${name}/agent.json` };
  };

  it('reads a plain file with one open and one read', () => {
    const { abs, file } = fresh('plain');
    fs.writeFileSync(abs, '{"a": 1}');
    const folder = resolveFolder(workspace);
    const read = readSourceBytes(abs, file, undefined, folder);
    expect(text(read.bytes)).toBe('{"a": 1}');
    expect(fs.openSync).toHaveBeenCalledTimes(1);
    expect(fs.readSync).toHaveBeenCalledTimes(1);
    for (const other of reads(abs, file)) expect(text(other.bytes)).toBe('{"a": 1}');
  });

  it('still reads a link that stays inside the workspace, and an empty file', () => {
    const { abs, file } = fresh('inner-link');
    const target = path.join(workspace, 'agents', 'a', 'real.json');
    fs.writeFileSync(target, '{"inner": true}');
    fs.symlinkSync(target, abs);
    for (const read of reads(abs, file)) expect(text(read.bytes)).toBe('{"inner": true}');
    const empty = fresh('empty');
    fs.writeFileSync(empty.abs, '');
    for (const read of reads(empty.abs, empty.file)) {
      expect(text(read.bytes)).toBe('');
      expect(read.diagnostics).toEqual([]);
    }
  });

  it('refuses a link to a file outside the workspace without opening it', () => {
    const { abs, file } = fresh('link-out');
    fs.symlinkSync(outsideFile, abs);
    const [resolved, given, found] = reads(abs, file);
    for (const read of [resolved, given]) {
      expect(read).toEqual({
        diagnostics: [],
        ioError: `cannot read ${file}: it is a link to a file outside its folder`,
      });
    }
    expect(found).toEqual({
      diagnostics: [],
      ioError: `cannot read ${file}: it is a link to a file outside the workspace`,
    });
    expect(fs.openSync).not.toHaveBeenCalled();
    expect(fs.readSync).not.toHaveBeenCalled();
  });

  it('refuses a file behind a folder that links out of the workspace, without reading it', () => {
    fs.rmSync(path.join(workspace, 'agents', 'parent-link'), { recursive: true, force: true });
    fs.symlinkSync(outside, path.join(workspace, 'agents', 'parent-link'));
    const abs = path.join(workspace, 'agents', 'parent-link', 'agent.json');
    const file = 'agents/parent-link/agent.json';
    for (const read of reads(abs, file)) {
      expect(read.bytes).toBeUndefined();
      expect(read.ioError).toMatch(/^cannot read agents\/parent-link\/agent\.json: it is a link to a file outside /);
      expect(JSON.stringify(read)).not.toContain(SECRET);
    }
    expect(fs.readSync).not.toHaveBeenCalled();
  });

  it("refuses a file in a folder beside the workspace whose name begins with the workspace's", () => {
    const sibling = `${workspace}-sibling`;
    fs.mkdirSync(sibling, { recursive: true });
    fs.writeFileSync(path.join(sibling, 'agent.json'), `{"s": "${SECRET}"}`);
    fs.rmSync(path.join(workspace, 'agents', 'sibling-link'), { recursive: true, force: true });
    fs.symlinkSync(sibling, path.join(workspace, 'agents', 'sibling-link'));
    const abs = path.join(workspace, 'agents', 'sibling-link', 'agent.json');
    for (const read of reads(abs, 'agents/sibling-link/agent.json')) {
      expect(read.bytes).toBeUndefined();
      expect(read.ioError).toMatch(/: it is a link to a file outside /);
    }
    expect(fs.readSync).not.toHaveBeenCalled();
  });

  it('refuses a FIFO without opening it (nothing blocks)', () => {
    const { abs, file } = fresh('fifo');
    execMkfifo(abs);
    for (const read of reads(abs, file)) {
      expect(read).toEqual({ diagnostics: [], ioError: `cannot read ${file}: not a regular file` });
    }
    expect(fs.openSync).not.toHaveBeenCalled();
  });

  it('refuses a device, and a link to one, without opening it', () => {
    expect(readSourceBytes('/dev/zero', 'zero', undefined, '/dev')).toEqual({
      diagnostics: [],
      ioError: 'cannot read zero: not a regular file',
    });
    const { abs, file } = fresh('device-link');
    fs.symlinkSync('/dev/zero', abs);
    for (const read of reads(abs, file)) {
      expect(read).toEqual({ diagnostics: [], ioError: `cannot read ${file}: not a regular file` });
    }
    expect(fs.openSync).not.toHaveBeenCalled();
  });

  it('refuses a directory and a too-large file without opening them', () => {
    const { abs, file } = fresh('dir');
    fs.mkdirSync(abs);
    for (const read of reads(abs, file))
      expect(read).toEqual({ diagnostics: [], ioError: `cannot read ${file}: it is a directory` });
    const big = fresh('big');
    fs.writeFileSync(big.abs, '');
    fs.truncateSync(big.abs, 64 * 1024 * 1024);
    for (const read of reads(big.abs, big.file)) {
      expect(read.bytes).toBeUndefined();
      expect(read.diagnostics).toEqual([expect.objectContaining({ rule: 'file-size', file: big.file })]);
    }
    const eleven = fresh('eleven');
    fs.writeFileSync(eleven.abs, '{"a": 123}\n');
    for (const read of reads(eleven.abs, eleven.file, 10))
      expect(read.diagnostics).toEqual([expect.objectContaining({ rule: 'file-size' })]);
    expect(fs.openSync).not.toHaveBeenCalled();
  });

  it('a file that grew past the limit after the check is refused, not cut short', () => {
    const { abs, file } = fresh('grows');
    fs.writeFileSync(abs, '{"a": 1}');
    afterLstat = { target: abs, swap: () => fs.appendFileSync(abs, ' '.repeat(20)) };
    const read = readSourceBytes(abs, file, 10, resolveFolder(workspace));
    expect(read.bytes).toBeUndefined();
    expect(read.diagnostics).toEqual([expect.objectContaining({ rule: 'file-size' })]);
  });

  it('a file swapped for a link out of the workspace between the check and the open is refused', () => {
    const { abs, file } = fresh('swap-link');
    fs.writeFileSync(abs, '{"a": 1}');
    afterLstat = {
      target: abs,
      swap: () => {
        fs.rmSync(abs);
        fs.symlinkSync(outsideFile, abs);
      },
    };
    const read = readSourceBytes(abs, file, undefined, resolveFolder(workspace));
    expect(read).toEqual({
      diagnostics: [],
      ioError: `cannot read ${file}: it is a link to a file outside its folder`,
    });
    expect(fs.readSync).not.toHaveBeenCalled();
  });

  it('a folder swapped for a link out of the workspace between the check and the open is refused unread', () => {
    const folder = path.join(workspace, 'agents', 'swap-folder');
    fs.rmSync(folder, { recursive: true, force: true });
    fs.mkdirSync(folder);
    const abs = path.join(folder, 'agent.json');
    fs.writeFileSync(abs, '{"a": 1}');
    // The outside file is as large as the inside one and a regular file: only where it lies differs.
    afterLstat = {
      target: abs,
      swap: () => {
        fs.rmSync(folder, { recursive: true });
        fs.symlinkSync(outside, folder);
      },
    };
    const read = readSourceBytes(abs, 'agents/swap-folder/agent.json', undefined, resolveFolder(workspace));
    expect(read.bytes).toBeUndefined();
    expect(read.ioError).toMatch(/^cannot read agents\/swap-folder\/agent\.json: it is a link to a file outside /);
    expect(fs.readSync).not.toHaveBeenCalled();
  });

  it('a file swapped for a FIFO between the check and the open never blocks and is refused', () => {
    const { abs, file } = fresh('swap-fifo');
    fs.writeFileSync(abs, '{"a": 1}');
    afterLstat = {
      target: abs,
      swap: () => {
        fs.rmSync(abs);
        execMkfifo(abs);
      },
    };
    expect(readSourceBytes(abs, file, undefined, resolveFolder(workspace))).toEqual({
      diagnostics: [],
      ioError: `cannot read ${file}: not a regular file`,
    });
    expect(fs.readSync).not.toHaveBeenCalled();
  });

  it('a file swapped for another regular file between the check and the open is judged again', () => {
    const { abs, file } = fresh('swap-file');
    fs.writeFileSync(abs, '{"a": 1}');
    afterLstat = {
      target: abs,
      swap: () => {
        fs.rmSync(abs);
        fs.writeFileSync(abs, '{"replaced": true}');
      },
    };
    expect(text(readSourceBytes(abs, file, undefined, resolveFolder(workspace)).bytes)).toBe('{"replaced": true}');
  });

  // Last: once the kernel's names of open files prove unavailable, the process keeps the full path.
  it('without /proc the full path gives the same answers', () => {
    readlinkFails = true;
    try {
      const plain = fresh('no-proc');
      fs.writeFileSync(plain.abs, '{"a": 1}');
      for (const read of reads(plain.abs, plain.file)) expect(text(read.bytes)).toBe('{"a": 1}');
      const linked = fresh('no-proc-link');
      fs.symlinkSync(outsideFile, linked.abs);
      expect(readSourceBytes(linked.abs, linked.file, undefined, resolveFolder(workspace))).toEqual({
        diagnostics: [],
        ioError: `cannot read ${linked.file}: it is a link to a file outside its folder`,
      });
    } finally {
      readlinkFails = false;
    }
  });
});

function execMkfifo(at: string): void {
  execFileSync('mkfifo', [at]);
}
