/**
 * Hostile input through the real `agentdef` binary, the way users (and CI logs) see it: lone
 * surrogates and YAML alias bombs exit 1 with located diagnostics (never 2, never "internal
 * error"), terminal control characters never reach the terminal raw (from a definition, a file
 * name or an argument), and a registry snapshot linked to /dev/zero or outside the registry is
 * refused without reading it.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnNodeWithCpuTime } from './support/cpu-time';
import { agentdefBin, repoRoot, runAgentdef } from './support/run-cli';
import { HUNG_CHILD_MS } from './support/hung-child';

const BEYOND_C0 = '\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';
const RAW_CONTROL = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f${BEYOND_C0}]`);
const OUTSIDE_SECRET = 'OUTSIDE-CONTENT-5d1e';

let ws: string;
let outside: string;
const example = () => JSON.parse(readFileSync(join(repoRoot, 'examples/text-stats/agent.json'), 'utf8'));
beforeAll(() => {
  ws = mkdtempSync(join(tmpdir(), 'agentdef-hostile-cli-'));
  outside = mkdtempSync(join(tmpdir(), 'agentdef-hostile-outside-'));
  writeFileSync(join(ws, 'nx.json'), '{}\n');
  writeFileSync(join(outside, 'secret.json'), `${OUTSIDE_SECRET}\n`);
});
afterAll(() => {
  rmSync(ws, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const agentdef = (args: string[]) => runAgentdef(args, ws, { XDG_CACHE_HOME: join(ws, '.cache') });
/** Like `agentdef`, with the CPU time the binary spent (a bound on work that machine load cannot break). */
const timedAgentdef = (args: string[]) =>
  spawnNodeWithCpuTime([agentdefBin, ...args], {
    cwd: ws,
    env: { ...process.env, XDG_CACHE_HOME: join(ws, '.cache') },
    timeout: HUNG_CHILD_MS,
  });

function expectSafe(run: { status: number | null; stdout: string; stderr: string }, status: number) {
  expect(run.status, run.stderr).toBe(status);
  expect(run.stdout + run.stderr).not.toContain('internal error');
  expect(run.stdout + run.stderr).not.toMatch(RAW_CONTROL);
}

describe('hostile definitions through the binary', () => {
  it('a lone surrogate: validate and plan exit 1 with a located diagnostic', () => {
    const definition = example();
    definition.metadata.description = 'a\ud800b';
    writeFileSync(join(ws, 'surrogate.json'), JSON.stringify(definition, null, 2));
    for (const verb of ['validate', 'plan']) {
      const run = agentdef([verb, 'surrogate.json']);
      expectSafe(run, 1);
      expect(run.stdout + run.stderr).toMatch(
        /unpaired-surrogate: .*\n {2}--> surrogate\.json:\d+:\d+ {2}\(\/metadata\/description\)/,
      );
    }
  });

  it('one large YAML scalar aliased thousands of times: exit 1 quickly, at the alias', () => {
    writeFileSync(
      join(ws, 'bomb.yaml'),
      `big: &b "${'x'.repeat(1024 * 1024)}"\nuses: [${Array(5000).fill('*b').join(', ')}]\n`,
    );
    for (const verb of ['validate', 'plan']) {
      const run = timedAgentdef([verb, 'bomb.yaml']);
      expect(run.cpuMs).toBeLessThan(15_000);
      expectSafe(run, 1);
      expect(run.stdout + run.stderr).toMatch(/yaml-alias: YAML aliases expand to more than 4 MiB/);
    }
  });

  it('terminal controls in values, file names and arguments are printed escaped', () => {
    const definition = example();
    definition.identity.name = 'x\u001b]0;owned\u0007\u001b[2K\u009b1A\u202e';
    const name = 'evil\u001b[31m.json';
    writeFileSync(join(ws, name), JSON.stringify(definition, null, 2));
    const run = agentdef(['validate', name]);
    expectSafe(run, 1);
    expect(run.stdout).toContain('control-characters');
    expect(run.stdout).toContain('evil\\u001b[31m.json');
    const json = agentdef(['validate', name, '--format', 'json']);
    expectSafe(json, 1);
    expect(JSON.parse(json.stdout).diagnostics[0].file).toBe(name);
    expectSafe(agentdef(['frob\u001b]0;x\u0007']), 2);
    expectSafe(agentdef(['validate', 'missing\u001b[2J.json']), 2);
  });

  it('a valid definition with hostile prose compiles (exit 0) and prints nothing raw', () => {
    cpSync(join(repoRoot, 'examples'), join(ws, 'examples'), { recursive: true });
    for (const f of ['tools.json', 'mcp.json']) cpSync(join(repoRoot, f), join(ws, f));
    const definition = example();
    definition.metadata.description = 'Counts \u001b]0;owned\u0007 words \u2028 \u202e\u009b and \u0000 more.';
    writeFileSync(join(ws, 'examples/text-stats/agent.json'), JSON.stringify(definition, null, 2));
    for (const verb of ['validate', 'plan', 'compile'])
      expectSafe(agentdef([verb, 'examples/text-stats/agent.json']), 0);
    const card = JSON.parse(readFileSync(join(ws, 'dist/agents/text-stats/agent-card.json'), 'utf8'));
    expect(card.description).toBe(definition.metadata.description); // data is kept as is; only printing escapes
  });

  it('a registry snapshot linked to /dev/zero or outside the registry: plan exits 1 without reading it', () => {
    const pinner = JSON.parse(readFileSync(join(repoRoot, 'examples/write-router/agent.json'), 'utf8'));
    pinner.composition = {
      kind: 'dag',
      nodes: [
        { slug: 'ghost', version: '1.0.0' },
        { slug: 'phantom', version: '1.0.0' },
      ],
      edges: [],
    };
    writeFileSync(join(ws, 'pinner.json'), JSON.stringify(pinner, null, 2));
    for (const slug of ['ghost', 'phantom']) mkdirSync(join(ws, 'registry/agents', slug), { recursive: true });
    symlinkSync('/dev/zero', join(ws, 'registry/agents/ghost/1.0.0.json'));
    symlinkSync(join(outside, 'secret.json'), join(ws, 'registry/agents/phantom/1.0.0.json'));
    const run = timedAgentdef(['plan', 'pinner.json']);
    expect(run.cpuMs).toBeLessThan(15_000);
    expectSafe(run, 1);
    expect(run.stderr).toContain('cannot read ghost@1.0.0 (not a regular file)');
    expect(run.stderr).toContain('cannot read phantom@1.0.0 (it is a link to a file outside its folder)');
    expect(run.stdout + run.stderr).not.toContain(OUTSIDE_SECRET);
    expect(run.stdout + run.stderr).not.toContain(outside);
  });
});
