/**
 * Putting back a previous output a writer killed mid-swap left aside (restoreOutputFolder): only a
 * folder provably agentdef's, only onto a destination that does not exist in any form, never while
 * its writer still runs, never deleting anything; idempotent. (The real killed writer and the
 * readers that call it: write-output.interrupt.test.ts.)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { markerContents, OUTPUT_MARKER } from './output-guard';
import { inFlight, restoreOutputFolder } from './output-leftovers';
import { treeSnapshot } from './test-support';

const root = mkdtempSync(join(tmpdir(), 'agentdef-leftovers-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A process id that ran on this machine and is gone. */
const deadPid = spawnSync(process.execPath, ['-e', '']).pid!;

let n = 0;
let parent = '';
let dest = '';
beforeEach(() => {
  parent = join(root, `p${n++}`);
  mkdirSync(parent);
  dest = join(parent, 'out');
});

const asideOf = (pid: number, hex = '0123abcd') => join(parent, `.out.old-${pid}-${hex}`);

/** A whole previous output of the writer's at `path`: marker listing exactly what is there. */
function previousOutput(path: string, plan = 'previous'): void {
  mkdirSync(join(path, 'job'), { recursive: true });
  writeFileSync(join(path, 'plan.json'), plan);
  writeFileSync(join(path, 'job', 'a.js'), 'a');
  writeFileSync(join(path, OUTPUT_MARKER), markerContents(['job/a.js', 'plan.json']));
}

const listing = () => readdirSync(parent).sort();

describe('restoreOutputFolder', () => {
  it('moves a dead writer’s whole previous output back, once: reading again finds it present', () => {
    previousOutput(asideOf(deadPid));
    const before = treeSnapshot(asideOf(deadPid));
    expect(restoreOutputFolder(dest)).toEqual({ state: 'restored', from: `.out.old-${deadPid}-0123abcd` });
    expect(treeSnapshot(dest)).toEqual(before);
    expect(listing()).toEqual(['out']);
    expect(restoreOutputFolder(dest)).toEqual({ state: 'present' });
    expect(treeSnapshot(dest)).toEqual(before);
  });

  it('this process’s own aside counts as a dead writer’s unless a write of it is running now', () => {
    previousOutput(asideOf(process.pid));
    inFlight.add(asideOf(process.pid));
    try {
      expect(restoreOutputFolder(dest)).toEqual({ state: 'busy', pid: process.pid });
      expect(existsSync(dest)).toBe(false);
    } finally {
      inFlight.delete(asideOf(process.pid));
    }
    expect(restoreOutputFolder(dest)).toMatchObject({ state: 'restored' });
  });

  it('refuses every folder not provably agentdef’s whole output, and deletes none of them', () => {
    const foreign = asideOf(deadPid, '00000001'); // no marker: a user's folder with the writer's name
    mkdirSync(foreign);
    writeFileSync(join(foreign, 'plan.json'), 'mine');
    const unlisted = asideOf(deadPid, '00000002'); // a marker, and a file it does not list
    previousOutput(unlisted);
    writeFileSync(join(unlisted, 'notes.txt'), 'mine');
    const cutShort = asideOf(deadPid, '00000003'); // only a marker cut short: no output to put back
    mkdirSync(cutShort);
    writeFileSync(join(cutShort, OUTPUT_MARKER), '{"format":"agentdef-out');
    const empty = asideOf(deadPid, '00000004');
    mkdirSync(empty);
    const elsewhere = join(parent, 'elsewhere'); // a link to a whole output is still a link
    previousOutput(elsewhere);
    symlinkSync(elsewhere, asideOf(deadPid, '00000005'));
    const markerIsLink = asideOf(deadPid, '00000006'); // the marker itself a link
    mkdirSync(markerIsLink);
    writeFileSync(join(markerIsLink, 'plan.json'), 'x');
    symlinkSync(join(elsewhere, OUTPUT_MARKER), join(markerIsLink, OUTPUT_MARKER));
    // Named almost like the writer's folders: other destinations, bad pid or suffix.
    for (const name of [`.outx.old-${deadPid}-0123abcd`, '.out.old-x-0123abcd', `.out.old-${deadPid}-0123ABCD`])
      previousOutput(join(parent, name));
    const before = treeSnapshot(parent);

    expect(restoreOutputFolder(dest)).toEqual({ state: 'missing' });
    expect(existsSync(dest)).toBe(false);
    expect(treeSnapshot(parent)).toEqual(before);
  });

  it('never replaces a destination that exists in any form: a file, a dangling link, a folder of someone else’s', () => {
    previousOutput(asideOf(deadPid));
    const aside = treeSnapshot(asideOf(deadPid));
    writeFileSync(dest, 'a file');
    expect(restoreOutputFolder(dest)).toEqual({ state: 'present' });
    rmSync(dest);
    symlinkSync(join(parent, 'nowhere'), dest);
    expect(restoreOutputFolder(dest)).toEqual({ state: 'present' });
    rmSync(dest);
    mkdirSync(dest);
    writeFileSync(join(dest, 'user.txt'), 'mine');
    expect(restoreOutputFolder(dest)).toEqual({ state: 'present' });
    expect(treeSnapshot(dest)).toEqual({ 'user.txt': 'mine' });
    expect(treeSnapshot(asideOf(deadPid))).toEqual(aside);
  });

  it('moves nothing while a writer of the destination still runs with its previous output aside', () => {
    const running = process.ppid; // a process that runs, not this one
    previousOutput(asideOf(running, 'ffffffff'));
    previousOutput(asideOf(deadPid), 'older');
    const before = treeSnapshot(parent);
    expect(restoreOutputFolder(dest)).toEqual({ state: 'busy', pid: running });
    expect(treeSnapshot(parent)).toEqual(before);
    expect(existsSync(dest)).toBe(false);
  });

  it('a missing parent, a parent that is a file, the root: nothing to do, nothing thrown', () => {
    expect(restoreOutputFolder(join(parent, 'none', 'out'))).toEqual({ state: 'missing' });
    writeFileSync(join(parent, 'file'), 'x');
    expect(restoreOutputFolder(join(parent, 'file', 'out'))).toEqual({ state: 'missing' });
    expect(restoreOutputFolder('/')).toEqual({ state: 'present' });
  });

  it('of two dead writers’ asides it moves one back and leaves the other for the next write', () => {
    previousOutput(asideOf(deadPid, '00000001'), 'first');
    previousOutput(asideOf(deadPid, '00000002'), 'second');
    expect(restoreOutputFolder(dest)).toEqual({ state: 'restored', from: `.out.old-${deadPid}-00000001` });
    expect(treeSnapshot(dest)['plan.json']).toBe('first');
    expect(listing()).toEqual([`.out.old-${deadPid}-00000002`, 'out']);
  });
});
