/**
 * A compile session bundles through one incremental bundler (esbuild contexts kept and rebuilt,
 * so agentdef's runtime is parsed once for every agent of a run-many): what it writes is what a
 * compile through a fresh bundler writes, byte for byte, for several agents and targets compiled
 * in an interleaved order, twice; and a process that compiled through a session and closed it
 * ends by itself (the kept contexts hold esbuild's process open until then).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileAgent } from '../../plugin/compiler/compile';
import { openCompileSession } from '../../plugin/compiler/compile-session';
import type { CompileTarget } from '../../plugin/targets/targets';
import { HUNG_CHILD_MS } from '../support/hung-child';
import { exampleWorkspace, repoRoot, type ExampleWorkspace } from './support/example-workspace';

let ws: ExampleWorkspace;
beforeAll(() => {
  ws = exampleWorkspace('incremental-session');
  // local-notes searches through an MCP server the workspace declares.
  ws.write('mcp.json', readFileSync(join(repoRoot, 'mcp.json'), 'utf8'));
});
afterAll(() => ws.remove());

/** Worker agents (a tool-only leaf, an agentic leaf, a dag with quarantined isolates, a hybrid) and Node hosts' entries, interleaved. */
const COMPILES: readonly { slug: string; target: CompileTarget }[] = [
  { slug: 'text-stats', target: 'cloudflare-dynamic-worker' },
  { slug: 'write-router', target: 'hb3' },
  { slug: 'web-summarizer', target: 'cloudflare-dynamic-worker' },
  { slug: 'text-digest', target: 'cloudflare-dynamic-worker' },
  { slug: 'local-notes', target: 'local-mac' },
  { slug: 'support-triage', target: 'cloudflare-dynamic-worker' },
];

const filesOf = (result: Awaited<ReturnType<typeof compileAgent>>) => {
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  expect(result.files?.length).toBeGreaterThan(0);
  return new Map((result.files ?? []).map((f) => [f.path, f.contents]));
};

describe('a compile session with its incremental bundler', () => {
  it('writes, agent after agent in an interleaved order and twice, the bytes of a compile through a fresh bundler', async () => {
    const fresh = new Map<string, Map<string, string>>();
    for (const { slug, target } of COMPILES) {
      const result = await compileAgent({
        file: ws.definition(slug),
        workspaceRoot: ws.root,
        target,
        outDir: join(ws.root, 'dist', 'fresh', target, slug),
      });
      fresh.set(`${target}/${slug}`, filesOf(result));
    }
    const session = openCompileSession(ws.root);
    try {
      for (const round of [1, 2]) {
        for (const { slug, target } of round === 1 ? COMPILES : [...COMPILES].reverse()) {
          const result = await session.compile({
            file: ws.definition(slug),
            target,
            outDir: join(ws.root, 'dist', `session-${round}`, target, slug),
          });
          const files = filesOf(result);
          const expected = fresh.get(`${target}/${slug}`)!;
          expect([...files.keys()], `${target}/${slug}`).toEqual([...expected.keys()]);
          for (const [path, contents] of expected) expect(files.get(path), `${target}/${slug}: ${path}`).toBe(contents);
        }
      }
      // All at once, as the batch executor runs them.
      const together = await Promise.all(
        COMPILES.map(({ slug, target }) =>
          session.compile({
            file: ws.definition(slug),
            target,
            outDir: join(ws.root, 'dist', 'together', target, slug),
          }),
        ),
      );
      for (const [i, { slug, target }] of COMPILES.entries())
        expect(filesOf(together[i]!), `${target}/${slug}`).toEqual(fresh.get(`${target}/${slug}`));
    } finally {
      await session.close();
    }
  });

  it('lets a process that compiled through a session and closed it end by itself (no process.exit)', () => {
    const script = `
const { openCompileSession } = require(${JSON.stringify(join(repoRoot, 'plugin', 'compiler', 'compile-session.ts'))});
const session = openCompileSession(${JSON.stringify(ws.root)});
Promise.all(['text-stats', 'web-summarizer'].map((slug) =>
  session.compile({ file: 'examples/' + slug + '/agent.json', target: 'cloudflare-dynamic-worker', outDir: ${JSON.stringify(join(ws.root, 'dist', 'exits'))} + '/' + slug }),
)).then(async (results) => {
  await session.close();
  console.log(JSON.stringify(results.map((r) => (r.files || []).length)));
});
`;
    const run = spawnSync(process.execPath, ['-r', '@swc-node/register', '-e', script], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: HUNG_CHILD_MS,
    });
    expect(run.signal, 'the process did not end by itself').toBeNull();
    expect(run.status, run.stderr).toBe(0);
    const counts = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as number[];
    expect(counts).toHaveLength(2);
    for (const count of counts) expect(count).toBeGreaterThan(0);
  });
});
