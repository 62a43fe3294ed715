/**
 * The `eval` target running for real under Nx: the example agents as an Nx workspace (agentdef
 * installed from its packed tarball), `nx run local-notes:eval` compiles and serves local-notes,
 * scores it on its cases replaying examples/local-notes/recordings (the target's default
 * recordings) and writes its reports and signed receipt into dist/eval/local-notes; run again with
 * nothing changed it is a cache hit whose outputs Nx restores byte for byte when they are gone; an
 * edit to one of its cases makes it run again.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, packAgentdef, type TempWorkspace } from './support/nx-workspace';
import { repoRoot } from './support/run-cli';

const CACHED = /existing outputs match the cache|local cache|read the output from the cache/i;
const OUT = 'dist/eval/local-notes';

describe('nx run local-notes:eval', () => {
  let ws: TempWorkspace;
  beforeAll(() => {
    ws = createWorkspace('eval-run', packAgentdef());
    cpSync(join(repoRoot, 'examples'), join(ws.dir, 'examples'), { recursive: true });
    for (const file of ['tools.json', 'mcp.json']) cpSync(join(repoRoot, file), join(ws.dir, file));
    const nxJson = JSON.parse(readFileSync(join(ws.dir, 'nx.json'), 'utf8')) as Record<string, unknown>;
    nxJson.plugins = [{ plugin: 'agentdef', include: ['examples/**/agent.json', 'examples/**/agent.yaml'] }];
    writeFileSync(join(ws.dir, 'nx.json'), JSON.stringify(nxJson, null, 2));
    // The definition's signing key, in the workspace's own home (keychain off).
    const keys = spawnSync(
      process.execPath,
      [join(ws.dir, 'node_modules', 'agentdef', 'bin', 'agentdef.cjs'), 'keys', 'generate', 'keyref:mia-laptop'],
      { cwd: ws.dir, env: ws.env, encoding: 'utf8' },
    );
    expect(keys.status, keys.stderr).toBe(0);
  });

  it('scores the agent, then serves the same scores from the cache until one of its cases changes', () => {
    const first = ws.nx(['run', 'local-notes:eval']);
    expect(first.status, `${first.stdout}\n${first.stderr}`).toBe(0);
    expect(first.stdout).toContain('models: replayed from examples/local-notes/recordings');
    expect(first.stdout).toContain('1 of 1 cases passed');
    const files = ['eval.json', 'junit.xml', 'eval.receipt.json'];
    const written = Object.fromEntries(files.map((f) => [f, readFileSync(join(ws.dir, OUT, f), 'utf8')]));
    expect(JSON.parse(written['eval.receipt.json']!)).toMatchObject({
      passed: true,
      definition: { slug: 'local-notes' },
    });

    rmSync(join(ws.dir, OUT), { recursive: true, force: true }); // the outputs, never the cache
    const again = ws.nx(['run', 'local-notes:eval']);
    expect(again.status, `${again.stdout}\n${again.stderr}`).toBe(0);
    expect(again.stdout).toMatch(CACHED);
    for (const f of files) expect(readFileSync(join(ws.dir, OUT, f), 'utf8'), f).toBe(written[f]);

    appendFileSync(join(ws.dir, 'examples/local-notes/evals/notes.yaml'), '# edited\n');
    const edited = ws.nx(['run', 'local-notes:eval']);
    expect(edited.status, `${edited.stdout}\n${edited.stderr}`).toBe(0);
    expect(edited.stdout).not.toMatch(CACHED);
    expect(existsSync(join(ws.dir, OUT, 'eval.receipt.json'))).toBe(true);
  });
});
