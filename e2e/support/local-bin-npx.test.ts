/**
 * The `npx` the page tests put on PATH (doc-workspace.ts, LOCAL_BIN_NPX) does what npm's npx does
 * for a bin the project installed, and hands everything else to npm's npx: compared here with
 * npm's npx itself, in a folder tree of its own.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmNpx, writeLocalBinNpx } from './doc-workspace';
import { e2eRoot } from './pack';

let root: string;
let shim: string;
let project: string;
let nested: string;

/** A bin that prints its arguments, one per line, and the PATH it ran with. */
const ECHO_BIN = '#!/bin/sh\nfor a in "$@"; do echo "arg:$a"; done\necho "path:$PATH"\n';

beforeAll(() => {
  root = mkdtempSync(join(e2eRoot(), 'local-bin-npx-'));
  shim = writeLocalBinNpx(join(root, 'shims'), process.env.PATH);
  // A project with an installed bin, and a package inside it that installed another.
  project = join(root, 'project');
  nested = join(project, 'packages', 'inner');
  for (const bin of [join(project, 'node_modules', '.bin'), join(nested, 'node_modules', '.bin')])
    mkdirSync(bin, { recursive: true });
  writeFileSync(join(project, 'package.json'), '{ "name": "project", "private": true }\n');
  writeFileSync(join(nested, 'package.json'), '{ "name": "inner", "private": true }\n');
  for (const [dir, name] of [
    [project, 'outer-tool'],
    [nested, 'inner-tool'],
  ] as const) {
    writeFileSync(join(dir, 'node_modules', '.bin', name), ECHO_BIN);
    chmodSync(join(dir, 'node_modules', '.bin', name), 0o755);
  }
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const npx = () => npmNpx(process.env.PATH);

const env = () => ({
  ...process.env,
  npm_config_offline: 'true',
  npm_config_update_notifier: 'false',
  npm_config_cache: join(root, 'npm-cache'),
  HOME: join(root, 'home'),
});
const run = (command: string, args: string[], cwd: string) =>
  spawnSync(command, args, { cwd, env: env(), encoding: 'utf8' });

describe('the local-bin npx of the page tests', () => {
  it('runs an installed bin as npm npx does: the same arguments, every node_modules/.bin from here up first on PATH', () => {
    const args = ['--no', 'inner-tool', 'a b', '--flag=1', '', "it's"];
    const ours = run(shim, args, nested);
    const npms = run(npx(), args, nested);
    expect(ours.status).toBe(0);
    expect(npms.status).toBe(0);
    const argLines = (out: string) => out.split('\n').filter((l) => l.startsWith('arg:'));
    expect(argLines(ours.stdout)).toEqual(['arg:a b', 'arg:--flag=1', 'arg:', "arg:it's"]);
    expect(argLines(ours.stdout)).toEqual(argLines(npms.stdout));
    const pathOf = (out: string) => (/^path:(.*)$/m.exec(out)?.[1] ?? '').split(delimiter);
    // npm puts the .bin of every folder from here up first (existing or not; the nearest twice).
    const ancestorsBins = [nested, join(project, 'packages'), project, root].map((dir) =>
      join(dir, 'node_modules', '.bin'),
    );
    const underRoot = (paths: string[]) => [...new Set(paths.filter((p) => p.startsWith(root)))];
    expect(underRoot(pathOf(ours.stdout))).toEqual(ancestorsBins);
    expect(underRoot(pathOf(ours.stdout))).toEqual(underRoot(pathOf(npms.stdout)));
    expect(pathOf(ours.stdout).slice(0, 4)).toEqual(ancestorsBins);
  });

  it('finds a bin installed in a folder above, from a subfolder', () => {
    const deep = join(nested, 'src', 'deeper');
    mkdirSync(deep, { recursive: true });
    const ours = run(shim, ['outer-tool', 'x'], deep);
    expect(ours.status, ours.stderr).toBe(0);
    expect(ours.stdout).toContain('arg:x\n');
  });

  it('hands a name nothing installed to npm npx, which fails as it would have', () => {
    const ours = run(shim, ['--no', 'agentdef-no-such-bin-here'], project);
    const npms = run(npx(), ['--no', 'agentdef-no-such-bin-here'], project);
    expect(npms.status).not.toBe(0);
    expect(ours.status).toBe(npms.status);
    // An option it does not know, and a package spec, go to npm's npx as they are.
    for (const args of [['--version'], ['--no', 'agentdef-no-such-package@1.0.0']]) {
      const a = run(shim, args, project);
      const b = run(npx(), args, project);
      expect(a.status, args.join(' ')).toBe(b.status);
      expect(a.stdout, args.join(' ')).toBe(b.stdout);
    }
    const withoutLogName = (text: string) => text.replace(/_logs\/\S+/g, '_logs/…');
    expect(withoutLogName(ours.stderr)).toBe(withoutLogName(npms.stderr));
  });
});
