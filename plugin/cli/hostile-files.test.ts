/**
 * Hostile files in a workspace, through the real CLI commands and the readers behind them: a
 * registry snapshot, tools.json, mcp.json or a definition that is a link to `/dev/zero`, to a
 * file outside the workspace or registry, a FIFO, or a huge file. Each is refused quickly with a
 * clear message (never hanging, never growing memory), no outside content appears in any output,
 * and the exit code is 1 or 2 (never an internal error).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cpuTimeOf, cpuTimeOfAsync } from '../../e2e/support/cpu-time';
import { indexRegistrySnapshots } from '../registry/__test-support__/registry-fixture';
import { FolderRegistry } from '../registry/agent-registry';
import { loadWorkspaceConfig } from '../compiler/workspace-config';
import { indexWorkspace } from '../compiler/workspace-index';
import { runPlanCommand } from './commands/plan';
import { captureRun, copyExamplesWorkspace } from './commands/test-support';
import { runValidateCommand } from './commands/validate';
import { terminalSafeIo } from './main';

/** Content that must never be printed: it lives outside the workspace. */
const OUTSIDE_SECRET = 'OUTSIDE-CONTENT-7f3a9c';

let root: string;
let outside: string;
beforeEach(() => {
  root = copyExamplesWorkspace('agentdef-hostile-files-');
  outside = mkdtempSync(join(tmpdir(), 'agentdef-outside-'));
  // Not JSON, so a parser error would quote it if it were ever read.
  writeFileSync(join(outside, 'secret.json'), `${OUTSIDE_SECRET} line one\n${OUTSIDE_SECRET} line two\n`);
  writeFileSync(join(outside, 'valid.json'), readFileSync(join(root, 'examples/text-stats/agent.json')));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

/** A verb run as runCli runs it (its own loader uses `require`, which vitest does not serve). */
const cli = ([verb, ...argv]: string[]) =>
  captureRun(
    (args, io) => (verb === 'plan' ? runPlanCommand : runValidateCommand)(args, terminalSafeIo(io)),
    argv,
    root,
  );
const mkfifo = (path: string) => execFileSync('mkfifo', [path]);

/** A definition that pins `ghost@1.0.0`, which only the registry can resolve. */
function pinGhost(): string {
  const definition = JSON.parse(readFileSync(join(root, 'examples/write-router/agent.json'), 'utf8'));
  definition.composition.nodes = [{ slug: 'ghost', version: '1.0.0' }];
  definition.composition.edges = [];
  definition.composition.kind = 'dag';
  mkdirSync(join(root, 'agents/pinner'), { recursive: true });
  writeFileSync(join(root, 'agents/pinner/agent.json'), JSON.stringify(definition, null, 2));
  mkdirSync(join(root, 'registry/agents/ghost'), { recursive: true });
  return 'agents/pinner/agent.json';
}

function expectRefused(run: { code: number; stdout: string; stderr: string }, pattern: RegExp) {
  const all = run.stdout + run.stderr;
  expect([1, 2]).toContain(run.code);
  expect(all).not.toContain('internal error');
  expect(all).not.toContain(OUTSIDE_SECRET);
  expect(all).not.toContain(outside); // not even the outside path
  expect(all).toMatch(pattern);
}

describe('registry snapshots', () => {
  it.each([
    [
      'a link to /dev/zero',
      () => symlinkSync('/dev/zero', join(root, 'registry/agents/ghost/1.0.0.json')),
      /not a regular file/,
    ],
    [
      'a link to a file outside the registry',
      () => symlinkSync(join(outside, 'secret.json'), join(root, 'registry/agents/ghost/1.0.0.json')),
      /link to a file outside its folder/,
    ],
    [
      'a link to a valid definition outside the registry',
      () => symlinkSync(join(outside, 'valid.json'), join(root, 'registry/agents/ghost/1.0.0.json')),
      /link to a file outside its folder/,
    ],
    [
      'a slug folder linked outside the registry',
      () => {
        rmSync(join(root, 'registry/agents/ghost'), { recursive: true });
        writeFileSync(join(outside, '1.0.0.json'), `${OUTSIDE_SECRET}\n`);
        symlinkSync(outside, join(root, 'registry/agents/ghost'));
      },
      /link to a file outside its folder/,
    ],
    ['a FIFO', () => mkfifo(join(root, 'registry/agents/ghost/1.0.0.json')), /not a regular file/],
    [
      'a 50 MB file',
      () => {
        writeFileSync(join(root, 'registry/agents/ghost/1.0.0.json'), '');
        truncateSync(join(root, 'registry/agents/ghost/1.0.0.json'), 50 * 1024 * 1024);
      },
      /the file is 50\.0 MiB .*at most 4\.0 MiB/,
    ],
  ])('plan refuses %s, located at the pin, quickly', async (_, plant, pattern) => {
    const file = pinGhost();
    plant();
    const { value: run, cpuMs } = await cpuTimeOfAsync(() => cli(['plan', file]));
    expect(cpuMs).toBeLessThan(5000);
    expectRefused(run, pattern);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('registry-unavailable');
    expect(run.stderr).toContain(`--> ${file}:`);
  });

  it('FolderRegistry answers "missing" for no file and rejects, without content, for a link out', async () => {
    pinGhost();
    const registry = new FolderRegistry({ workspaceRoot: root });
    expect(await registry.resolve('ghost', '1.0.0')).toBeUndefined();
    symlinkSync(join(outside, 'secret.json'), join(root, 'registry/agents/ghost/1.0.0.json'));
    await expect(registry.resolve('ghost', '1.0.0')).rejects.toThrow(
      /^registry registry\/agents: cannot read ghost@1\.0\.0 \(it is a link to a file outside its folder\)$/,
    );
  });

  it('lists no versions of a slug folder linked out of the registry', async () => {
    pinGhost();
    rmSync(join(root, 'registry/agents/ghost'), { recursive: true });
    writeFileSync(join(outside, '9.9.9.json'), '{}');
    symlinkSync(outside, join(root, 'registry/agents/ghost'));
    expect(await new FolderRegistry({ workspaceRoot: root }).versions('ghost')).toEqual([]);
    mkdirSync(join(root, 'registry/agents/real'));
    writeFileSync(join(root, 'registry/agents/real/1.0.0.json'), '{}');
    expect(await new FolderRegistry({ workspaceRoot: root }).versions('real')).toEqual(['1.0.0']);
  });

  it('still reads a regular snapshot inside the registry', async () => {
    pinGhost();
    const snapshot = readFileSync(join(root, 'examples/text-stats/agent.json'), 'utf8')
      .replace('"slug": "text-stats"', '"slug": "ghost"')
      .replace(/"versionSemver": "[^"]+"/, '"versionSemver": "1.0.0"');
    writeFileSync(join(root, 'registry/agents/ghost/1.0.0.json'), snapshot);
    indexRegistrySnapshots(root);
    const hit = await new FolderRegistry({ workspaceRoot: root }).resolve('ghost', '1.0.0');
    expect(Buffer.from(hit!.bytes).toString('utf8')).toBe(snapshot);
  });
});

describe('tools.json and mcp.json', () => {
  it.each([
    [
      'a link to a file outside the workspace',
      (p: string) => symlinkSync(join(outside, 'secret.json'), p),
      /link to a file outside its folder/,
    ],
    ['a link to /dev/zero', (p: string) => symlinkSync('/dev/zero', p), /not a regular file/],
    ['a FIFO', (p: string) => mkfifo(p), /not a regular file/],
    [
      'a 50 MB file',
      (p: string) => {
        writeFileSync(p, '');
        truncateSync(p, 50 * 1024 * 1024);
      },
      /at most 4\.0 MiB/,
    ],
  ])('%s is a located diagnostic, never read', (_, plant, pattern) => {
    for (const name of ['tools.json', 'mcp.json']) {
      const path = join(root, name);
      rmSync(path, { force: true });
      plant(path);
      const { value: loaded, cpuMs } = cpuTimeOf(() => loadWorkspaceConfig(root));
      const { diagnostics, config } = loaded;
      expect(cpuMs).toBeLessThan(2000);
      const mine = diagnostics.filter((d) => d.file === name);
      expect(mine).toHaveLength(1);
      expect(mine[0]!.message).toMatch(pattern);
      expect(JSON.stringify(diagnostics)).not.toContain(OUTSIDE_SECRET);
      expect(config.documents.has(name)).toBe(false);
      rmSync(path, { force: true });
    }
  });

  it('an unpaired surrogate in tools.json or mcp.json is a located diagnostic', () => {
    writeFileSync(
      join(root, 'tools.json'),
      '{\n  "tools": {\n    "t\\ud800": { "module": "./x.ts", "export": "x" }\n  }\n}\n',
    );
    writeFileSync(join(root, 'mcp.json'), '{"servers": {"s": {"command": "node", "args": ["\\udc00"]}}}');
    const { diagnostics, config } = loadWorkspaceConfig(root);
    expect(diagnostics.map((d) => `${d.file} ${d.rule} ${d.line}`).sort()).toEqual([
      'mcp.json unpaired-surrogate 1',
      'tools.json unpaired-surrogate 3',
    ]);
    expect(config.tools.size).toBe(0);
    expect(config.mcpServers.size).toBe(0);
  });

  it('a missing file is still no problem', () => {
    rmSync(join(root, 'tools.json'), { force: true });
    rmSync(join(root, 'mcp.json'), { force: true });
    expect(loadWorkspaceConfig(root).diagnostics).toEqual([]);
  });
});

describe('definition files', () => {
  it.each([
    [
      'a link to a file outside the workspace',
      (p: string) => symlinkSync(join(outside, 'secret.json'), p),
      /link to a file outside the workspace/,
    ],
    [
      'a link to a valid definition outside the workspace',
      (p: string) => symlinkSync(join(outside, 'valid.json'), p),
      /link to a file outside the workspace/,
    ],
    ['a link to /dev/zero', (p: string) => symlinkSync('/dev/zero', p), /not a regular file/],
    ['a FIFO', (p: string) => mkfifo(p), /not a regular file/],
  ])('validate and plan refuse %s named on the command line (exit 2), quickly', async (_, plant, pattern) => {
    mkdirSync(join(root, 'agents/evil'), { recursive: true });
    plant(join(root, 'agents/evil/agent.json'));
    for (const verb of ['validate', 'plan']) {
      const { value: run, cpuMs } = await cpuTimeOfAsync(() => cli([verb, 'agents/evil/agent.json']));
      expect(cpuMs).toBeLessThan(5000);
      expectRefused(run, pattern);
      expect(run.code).toBe(2);
    }
  });

  it('a folder search never follows a linked definition or folder out of the workspace', async () => {
    mkdirSync(join(root, 'agents/evil'), { recursive: true });
    symlinkSync(join(outside, 'secret.json'), join(root, 'agents/evil/agent.json'));
    symlinkSync(outside, join(root, 'agents/linked-folder'));
    writeFileSync(join(outside, 'agent.json'), `${OUTSIDE_SECRET}\n`);
    const run = await cli(['validate', 'agents']);
    expect(run.stdout + run.stderr).not.toContain(OUTSIDE_SECRET);
    expect(run.stderr).toContain('no agent.json, agent.yaml, application.json or application.yaml found');
  });

  it('the workspace index reports a huge or linked-out definition as unreadable without reading it', () => {
    mkdirSync(join(root, 'agents/huge'), { recursive: true });
    writeFileSync(join(root, 'agents/huge/agent.json'), '');
    truncateSync(join(root, 'agents/huge/agent.json'), 50 * 1024 * 1024);
    const { value: index, cpuMs } = cpuTimeOf(() => indexWorkspace(root));
    expect(cpuMs).toBeLessThan(3000);
    expect(index.unreadable).toEqual([
      { file: 'agents/huge/agent.json', reason: expect.stringMatching(/^cannot be read \(the file is 50\.0 MiB/) },
    ]);
  });

  it('a link inside the workspace to another workspace file is still read', async () => {
    mkdirSync(join(root, 'agents/alias'), { recursive: true });
    symlinkSync(join(root, 'examples/text-stats/agent.json'), join(root, 'agents/alias/agent.json'));
    const run = await cli(['validate', 'agents/alias/agent.json']);
    expect(run.code).toBe(0);
  });
});
