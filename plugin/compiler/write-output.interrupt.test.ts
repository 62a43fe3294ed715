/**
 * The writer in a real process that is killed: SIGINT and SIGTERM at random moments of a write
 * loop, and sent between the swap's two renames, never leave the destination missing or mixed (the
 * signal is held until the swap is done, then has its usual effect). SIGKILL at random moments
 * leaves the previous or the new output, or (between two system calls) the previous output moved
 * aside, which the next write moves back; leftovers of the dead writer are removed by it. A SIGKILL
 * exactly between the two renames: every reader of the output (outputTarget, which run, dev, deploy
 * and the model session use) puts the previous output back before reading it; a reader that meets a
 * writer still running between its renames moves nothing and says so.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markerContents, OUTPUT_MARKER } from './output-guard';
import { OUTPUT_A, OUTPUT_B, PLANNED_A, PLANNED_B } from './__test-support__/write-loop-outputs';
import { outputTarget } from '../targets/output-target';
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

describe('a reader of the output after a writer was killed between the two renames', () => {
  const PA = whole(PLANNED_A);
  const PB = whole(PLANNED_B);
  const swapFolders = (dist: string, kind: 'tmp' | 'old') =>
    readdirSync(dist).filter((name) => new RegExp(`^\\.agent\\.${kind}-\\d+-[0-9a-f]{8}$`).test(name));
  /** Which output the reader finds (its target and plan's `output`), or its problem. */
  const read = (dest: string) => {
    const found = outputTarget(dest);
    return found.target ? `${found.target.id} ${String(found.plan['output'])}` : found.problem;
  };

  it('SIGKILL exactly between them: the reader finds the previous output whole, moved back, and the next write works', async () => {
    const { workspace: ws, dist, dest } = workspace();
    const run = spawnSync(process.execPath, [script, 'kill-in-swap', ws, dest], { encoding: 'utf8' });
    expect(run.signal).toBe('SIGKILL');
    expect(run.stderr).toBe('');
    // The state the kill left: no destination, the previous output aside, the new one at its temp name.
    expect(existsSync(dest)).toBe(false);
    const aside = swapFolders(dist, 'old');
    expect(aside).toHaveLength(1);
    expect(treeSnapshot(join(dist, aside[0]!))).toEqual(PA);
    const temp = swapFolders(dist, 'tmp');
    expect(temp).toHaveLength(1);

    expect(read(dest)).toBe('hb3 A');
    expect(treeSnapshot(dest)).toEqual(PA);
    // The reader deletes nothing: the dead writer's temp folder waits for the next write.
    expect(readdirSync(dist).sort()).toEqual([...temp, 'agent'].sort());
    // Reading again changes nothing.
    expect(read(dest)).toBe('hb3 A');
    expect(readdirSync(dist).sort()).toEqual([...temp, 'agent'].sort());

    expect(await writeOutputAtomic(dest, PLANNED_B, { workspaceRoot: ws })).toEqual({ ok: true });
    expect(treeSnapshot(dest)).toEqual(PB);
    expect(readdirSync(dist)).toEqual(['agent']);
    expect(read(dest)).toBe('hb3 B');
  });

  it('a writer still running between them: the reader moves nothing and says so; once it is killed, the reader moves the previous output back', async () => {
    const { workspace: ws, dist, dest } = workspace();
    const child: ChildProcess = spawn(process.execPath, [script, 'kill-in-swap', ws, dest, 'stop'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<NodeJS.Signals | null>((done) => child.on('exit', (_code, sig) => done(sig)));
    try {
      await new Promise<void>((between, failed) => {
        let out = '';
        child.stdout!.on('data', (d) => {
          out += d;
          if (out.includes('between the renames\n')) between();
        });
        child.on('exit', (code, sig) => failed(new Error(`the writer ended (${code ?? sig}) before its swap`)));
      });
      expect(existsSync(dest)).toBe(false);
      const aside = swapFolders(dist, 'old');
      expect(aside).toEqual([expect.stringMatching(new RegExp(`^\\.agent\\.old-${child.pid}-`))]);
      const busy = outputTarget(dest);
      expect(busy).toEqual({
        problem: `${dest} is being replaced by a compile that is still running (process ${child.pid}): try again when it ends`,
        noPlan: false,
      });
      expect(existsSync(dest)).toBe(false);
      expect(treeSnapshot(join(dist, aside[0]!))).toEqual(PA);
    } finally {
      child.kill('SIGKILL');
    }
    expect(await exited).toBe('SIGKILL');
    expect(read(dest)).toBe('hb3 A');
    expect(treeSnapshot(dest)).toEqual(PA);
    expect(await writeOutputAtomic(dest, PLANNED_B, { workspaceRoot: ws })).toEqual({ ok: true });
    expect(readdirSync(dist)).toEqual(['agent']);
    expect(treeSnapshot(dest)).toEqual(PB);
  });
});
