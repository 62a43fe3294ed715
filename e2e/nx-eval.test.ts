/**
 * The inferred `eval` target as Nx users meet it: agentdef packed and installed into a fresh Nx
 * workspace, driven by the real `nx` CLI. Every agent gets a cacheable `eval` target whose inputs
 * are its definition tree (like compile), its `evals/` cases and its recordings, so `nx affected -t
 * eval` selects exactly the agents a change can re-score: an eval case or a recording of one agent
 * selects that agent alone; a change to a composed child selects the child and every parent above
 * it, as `affected -t compile` does. The plugin's `requireEval` option makes every `promote` target
 * require a passing eval receipt; every `promote` to tool-shipped requires benchmark events, always.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CommandResult, createWorkspace, packAgentdef, type TempWorkspace } from './support/nx-workspace';

const ok = (r: CommandResult) => {
  expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  return r;
};

const CASES = `schemaVersion: eval-cases/v1
cases:
  - id: answers
    input:
      text: hello
    assertions:
      - type: max-length
        chars: 4000
`;

describe('the eval target in a fresh Nx workspace', () => {
  let ws: TempWorkspace;

  beforeAll(() => {
    ws = createWorkspace('nx-eval', packAgentdef());
    ok(ws.nx(['g', 'agentdef:init', '--no-interactive']));
    for (const name of ['alpha', 'beta', 'leaf'])
      ok(ws.nx(['g', 'agentdef:agent', name, '--kind=tool', '--runtime=workers-preferred', '--no-interactive']));
    ok(ws.nx(['g', 'agentdef:agent', 'mid', '--kind=agent', '--nodes=leaf@0.1.0', '--no-interactive']));
    ok(ws.nx(['g', 'agentdef:agent', 'root', '--kind=agent', '--nodes=mid@0.1.0', '--no-interactive']));
    for (const name of ['alpha', 'beta', 'leaf', 'mid', 'root']) {
      mkdirSync(join(ws.dir, name, 'evals'), { recursive: true });
      writeFileSync(join(ws.dir, name, 'evals', 'cases.yaml'), CASES);
    }
  });

  /** The eval tasks `nx affected -t eval` would run for a change to `files` (its task graph; nothing runs). */
  function affectedEvalTasks(files: string[], name: string): string[] {
    ok(ws.nx(['affected', '-t', 'eval', `--files=${files.join(',')}`, `--graph=${name}.json`]));
    const graph = JSON.parse(readFileSync(join(ws.dir, `${name}.json`), 'utf8')) as {
      tasks: { tasks: Record<string, { target: { project: string; target: string } }> };
    };
    return Object.values(graph.tasks.tasks)
      .map((t) => `${t.target.project}:${t.target.target}`)
      .sort();
  }

  it('infers a cacheable eval target on the definition tree, the cases and the recordings', () => {
    const project = JSON.parse(ok(ws.nx(['show', 'project', 'mid', '--json'])).stdout) as {
      targets: Record<
        string,
        {
          executor?: string;
          cache?: boolean;
          inputs?: unknown[];
          outputs?: string[];
          options?: Record<string, unknown>;
        }
      >;
    };
    const evalTarget = project.targets['eval']!;
    expect(evalTarget.executor).toBe('agentdef:eval');
    expect(evalTarget.cache).toBe(true);
    expect(evalTarget.outputs).toEqual(['{options.out}']);
    expect(evalTarget.options).toMatchObject({
      definition: 'mid/agent.json',
      out: 'dist/eval/mid',
      replay: 'mid/recordings',
    });
    // The compile target's tree inputs, and the cases and recordings.
    const compileInputs = project.targets['compile']!.inputs!.filter((i) => typeof i === 'string');
    expect(evalTarget.inputs).toEqual(
      expect.arrayContaining([...compileInputs, '{projectRoot}/evals/**/*', '{projectRoot}/recordings/**/*']),
    );
  });

  it('selects exactly the agent whose eval case or recording changed', () => {
    expect(affectedEvalTasks(['alpha/evals/cases.yaml'], 'cases-alpha')).toEqual(['alpha:eval']);
    expect(affectedEvalTasks(['beta/recordings/0000.json'], 'recordings-beta')).toEqual(['beta:eval']);
    expect(affectedEvalTasks(['alpha/evals/cases.yaml', 'beta/evals/cases.yaml'], 'cases-both')).toEqual([
      'alpha:eval',
      'beta:eval',
    ]);
  });

  it('selects a composed child and every parent above it when the child changes, like compile', () => {
    expect(affectedEvalTasks(['leaf/agent.json'], 'leaf-definition')).toEqual(['leaf:eval', 'mid:eval', 'root:eval']);
    expect(affectedEvalTasks(['mid/agent.json'], 'mid-definition')).toEqual(['mid:eval', 'root:eval']);
    expect(affectedEvalTasks(['root/agent.json'], 'root-definition')).toEqual(['root:eval']);
  });

  it('makes every promote target require a passing eval receipt with the requireEval plugin option', () => {
    const nxJsonFile = join(ws.dir, 'nx.json');
    const original = readFileSync(nxJsonFile, 'utf8');
    const promoteOptions = () =>
      (
        JSON.parse(ok(ws.nx(['show', 'project', 'alpha', '--json'])).stdout) as {
          targets: Record<string, { options?: Record<string, unknown> }>;
        }
      ).targets['promote']!.options;
    expect(promoteOptions()).not.toHaveProperty('requireEval');
    const nxJson = JSON.parse(original) as {
      plugins: (string | { plugin: string; options?: Record<string, unknown> })[];
    };
    nxJson.plugins = nxJson.plugins.map((p) =>
      (typeof p === 'string' ? p : p.plugin) === 'agentdef'
        ? { plugin: 'agentdef', options: { ...(typeof p === 'string' ? {} : p.options), requireEval: true } }
        : p,
    );
    writeFileSync(nxJsonFile, `${JSON.stringify(nxJson, null, 2)}\n`);
    // The promoting key, and signed run receipts (what tool-shipped asks of the definition itself).
    const alphaFile = join(ws.dir, 'alpha', 'agent.json');
    const alpha = JSON.parse(readFileSync(alphaFile, 'utf8')) as {
      identity: { signingKeyRef: string };
      telemetryContract: { receiptSigner: string | null };
    };
    alpha.telemetryContract.receiptSigner = alpha.identity.signingKeyRef;
    writeFileSync(alphaFile, `${JSON.stringify(alpha, null, 2)}\n`);
    const keys = spawnSync(
      process.execPath,
      [
        join(ws.dir, 'node_modules', 'agentdef', 'bin', 'agentdef.cjs'),
        'keys',
        'generate',
        alpha.identity.signingKeyRef,
      ],
      { cwd: ws.dir, env: ws.env, encoding: 'utf8' },
    );
    expect(keys.status, keys.stderr).toBe(0);
    try {
      expect(promoteOptions()).toMatchObject({ definition: 'alpha/agent.json', requireEval: true });
      const refused = ws.nx(['run', 'alpha:promote', '--to=tool-shipped']);
      expect(refused.status).not.toBe(0);
      expect(refused.stdout + refused.stderr).toMatch(/alpha\/agent\.json:\d+:\d+/);
      expect(refused.stdout + refused.stderr).toContain(
        '"tool-shipped" requires a passing eval of this definition: there is no eval receipt at dist/eval/alpha/eval.receipt.json',
      );
    } finally {
      writeFileSync(nxJsonFile, original);
    }
  });

  it('refuses every promote to tool-shipped without benchmark events, no option needed', () => {
    // alpha signs its receipts and has its key (the test above); the plugin sets no option.
    const alphaFile = join(ws.dir, 'alpha', 'agent.json');
    const before = readFileSync(alphaFile, 'utf8');
    const refused = ws.nx(['run', 'alpha:promote', '--to=tool-shipped']);
    expect(refused.status).not.toBe(0);
    const output = refused.stdout + refused.stderr;
    expect(output).toMatch(/alpha\/agent\.json:\d+:\d+/);
    expect(output).toContain(
      '"tool-shipped" requires signed tool benchmark events of this definition: there are no benchmark events at dist/bench/alpha/tool-benchmark-events.json',
    );
    expect(output).toContain('run `agentdef bench-tool alpha/agent.json`');
    expect(readFileSync(alphaFile, 'utf8')).toBe(before);
  });
});
