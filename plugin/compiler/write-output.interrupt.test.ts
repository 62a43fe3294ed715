/**
 * The writer in a real process that is killed: SIGINT and SIGTERM at random moments of a write
 * loop, and sent between the swap's two renames, never leave the destination missing or mixed (the
 * signal is held until the swap is done, then has its usual effect). SIGKILL at random moments
 * leaves the previous or the new output, or (between two system calls) the previous output moved
 * aside, which the next write moves back; leftovers of the dead writer are removed by it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markerContents, OUTPUT_MARKER } from './output-guard';
import { OUTPUT_A, OUTPUT_B } from './__test-support__/write-loop-outputs';
import type { EmittedFile } from '../targets/target';
import { treeSnapshot } from './test-support';
import { writeOutputAtomic } from './write-output';

const root = mkdtempSync(join(tmpdir(), 'agentdef-write-kill-'));
const script = join(root, 'write-loop.mjs');
beforeAll(() => {
  buildSync({
    entryPoints: [join(__dirname, '__test-support__', 'write-loop.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: script,
    logLevel: 'silent',
  });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const whole = (files: readonly EmittedFile[]) => {
  const out: Record<string, string> = { [OUTPUT_MARKER]: markerContents(files.map((f) => f.path)) };
  for (const file of files) out[file.path] = file.contents;
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
};
const A = whole(OUTPUT_A);
const B = whole(OUTPUT_B);

let n = 0;
function workspace(): { workspace: string; dist: string; dest: string } {
  const ws = join(root, `w${n++}`);
  mkdirSync(join(ws, 'dist'), { recursive: true });
  return { workspace: ws, dist: join(ws, 'dist'), dest: join(ws, 'dist', 'agent') };
}

/** Starts the write loop, waits for its first output, kills it after `delayMs`, resolves when it is gone. */
function killLoopAfter(
  ws: string,
  dest: string,
  signal: NodeJS.Signals,
  delayMs: number,
): Promise<NodeJS.Signals | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, 'loop', ws, dest], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.stdout.once('data', () => setTimeout(() => child.kill(signal), delayMs));
    child.on('exit', (code, sig) =>
      sig ? resolve(sig) : reject(new Error(`the write loop ended by itself (${code}): ${stderr}`)),
    );
  });
}

/** After any interruption, the next write (a new writer) leaves exactly its output and nothing beside it. */
async function nextWriteCleansUp(ws: string, dist: string, dest: string): Promise<void> {
  expect(await writeOutputAtomic(dest, OUTPUT_A, { workspaceRoot: ws })).toEqual({ ok: true });
  expect(treeSnapshot(dest)).toEqual(A);
  expect(readdirSync(dist).map((name) => `${name}: ${readdirSync(join(dist, name)).join(',')}`)).toEqual([
    `agent: ${readdirSync(dest).join(',')}`,
  ]);
}

describe('the writer killed in a real process', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} at random moments of a write loop: the destination is always A or B, whole`, async () => {
      for (let i = 0; i < 12; i++) {
        const { workspace: ws, dist, dest } = workspace();
        expect(await killLoopAfter(ws, dest, signal, (i * 7) % 40)).toBe(signal);
        expect(existsSync(dest)).toBe(true);
        expect([A, B]).toContainEqual(treeSnapshot(dest));
        await nextWriteCleansUp(ws, dist, dest);
      }
    });
  }

  it('SIGKILL at random moments: A or B, or A moved aside and moved back by the next write', async () => {
    for (let i = 0; i < 16; i++) {
      const { workspace: ws, dist, dest } = workspace();
      expect(await killLoopAfter(ws, dest, 'SIGKILL', (i * 5) % 40)).toBe('SIGKILL');
      if (existsSync(dest)) expect([A, B]).toContainEqual(treeSnapshot(dest));
      else {
        const aside = readdirSync(dist).filter((name) => name.startsWith('.agent.old-'));
        expect(aside).toHaveLength(1);
        expect([A, B]).toContainEqual(treeSnapshot(join(dist, aside[0]!)));
      }
      await nextWriteCleansUp(ws, dist, dest);
    }
  });

  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    it(`${signal} between the swap's two renames is held until the swap is done, then ends the process`, () => {
      const { workspace: ws, dist, dest } = workspace();
      const run = spawnSync(process.execPath, [script, 'signal-in-swap', ws, dest, signal], { encoding: 'utf8' });
      expect(run.signal).toBe(signal);
      expect(run.stdout).toBe(''); // it ended inside the writer, right after the swap
      expect(treeSnapshot(dest)).toEqual(B);
      expect(readdirSync(dist).filter((name) => name !== 'agent')).toEqual([
        expect.stringMatching(/^\.agent\.old-\d+-[0-9a-f]{8}$/),
      ]);
      return nextWriteCleansUp(ws, dist, dest);
    });
  }

  it('a process with its own SIGTERM listener gets the signal after the swap and goes on', () => {
    const { workspace: ws, dest } = workspace();
    const run = spawnSync(process.execPath, [script, 'signal-in-swap', ws, dest, 'SIGTERM', 'listen'], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('handled SIGTERM: plan.json is "B"\nwrote {"ok":true}\n');
    expect(treeSnapshot(dest)).toEqual(B);
  });
});
