/**
 * The definition walk graph inference records for the executors of the same Nx command
 * (definition-walk-record.ts): the index takes the walk's files from the record only when the
 * graph it is handed holds the record's digest; a graph older than the record on disk (a
 * definition added since, in a folder Nx ignores), a forged or malformed record, two digests, or
 * a graph made in the Nx daemon, and it walks the workspace itself. Either way it answers as
 * `indexWorkspace` on the workspace as it is.
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProjectGraph } from '@nx/devkit';
import { findDefinitionFiles } from '../plugin/definition/workspace-definitions';
import { indexWorkspace } from '../plugin/compiler/workspace-index';
import type { KnownIndexStats } from '../plugin/compiler/workspace-index-known';
import { agent, json } from '../plugin/compiler/test-support';
import { walkRecordPathFor } from '../plugin/graph/definition-walk-record';
import { inferredProjectGraph } from './__test-support__/inferred-project-graph';
import { graphPinLookup, recordedWalkOf } from './graph-pin-lookup';

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agentdef-walk-record-'));
  writeFileSync(join(root, 'nx.json'), '{}\n');
  write('parent/agent.json', json(agent('parent', '1.0.0', { nodes: [['base', '1.0.0']] })));
  write('base/agent.json', json(agent('base', '1.0.0')));
  write('other/agent.json', json(agent('other', '2.0.0')));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function write(file: string, text: string): void {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
}

/** The definition files Nx would match: all of them but those below `vendor/` (as if git-ignored). */
const seenByNx = () => findDefinitionFiles(root).filter((file) => !file.startsWith('vendor/'));

/** The index's answers for `slugs`, and how it got its files. */
function answers(graph: ProjectGraph, slugs: readonly string[]) {
  const stats: KnownIndexStats = { reused: 0, listed: 0, known: 0, read: 0 };
  const lookup = graphPinLookup({ root, projectGraph: graph }, stats);
  const bySlug = Object.fromEntries(slugs.map((slug) => [slug, lookup?.definitionsOf(slug).map((e) => e.file)]));
  return { bySlug, stats };
}

/** What `indexWorkspace` answers for `slugs` on the workspace as it is now. */
function truth(slugs: readonly string[]) {
  const eager = indexWorkspace(root);
  return Object.fromEntries(slugs.map((slug) => [slug, eager.definitionsOf(slug).map((e) => e.file)]));
}

const SLUGS = ['base', 'parent', 'other', 'ghost'];

/** `graph` with its recorded digest replaced by the digest of `text` (as if inference had recorded `text`). */
function graphStating(graph: ProjectGraph, digest: string): ProjectGraph {
  const nodes = structuredClone(graph.nodes);
  for (const node of Object.values(nodes)) {
    const agentdef = agentdefOf(node);
    if (agentdef.walk !== undefined) agentdef.walk = digest;
  }
  return { ...graph, nodes };
}
const digestOf = (text: string) => createHash('sha256').update(text).digest('base64url');

/** The agentdef metadata of a graph node (every agent project has it). */
const agentdefOf = (node: ProjectGraph['nodes'][string] | undefined) =>
  (node?.data.metadata?.['agentdef'] ?? {}) as { walk?: unknown };

describe('the walk recorded by graph inference', () => {
  it('is taken instead of a walk when the graph holds its digest, and finds the copy Nx cannot see', async () => {
    write('vendor/base/agent.json', json(agent('base', '1.0.0')));
    const graph = await inferredProjectGraph(root, seenByNx());
    expect(recordedWalkOf(graph)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // One project states it (the first), none of the others.
    const stating = Object.values(graph.nodes).filter((node) => agentdefOf(node).walk !== undefined);
    expect(stating).toHaveLength(1);
    const { bySlug, stats } = answers(graph, SLUGS);
    expect(stats).toMatchObject({ recorded: true, reused: 0, listed: 0 });
    expect(bySlug).toEqual(truth(SLUGS));
    expect(bySlug['base']).toEqual(['base/agent.json', 'vendor/base/agent.json']);
  });

  it('is not taken by an older graph once a newer inference recorded a definition added since', async () => {
    const older = await inferredProjectGraph(root, seenByNx());
    expect(answers(older, SLUGS).stats.recorded).toBe(true);
    write('vendor/base/agent.json', json(agent('base', '1.0.0'))); // where Nx does not look
    const newer = await inferredProjectGraph(root, seenByNx());
    expect(recordedWalkOf(newer)).not.toBe(recordedWalkOf(older));
    const viaOlder = answers(older, SLUGS);
    expect(viaOlder.stats.recorded).toBeUndefined(); // the record is the newer graph's: walked instead
    expect(viaOlder.bySlug).toEqual(truth(SLUGS));
    const viaNewer = answers(newer, SLUGS);
    expect(viaNewer.stats.recorded).toBe(true);
    expect(viaNewer.bySlug).toEqual(truth(SLUGS));
    expect(viaNewer.bySlug['base']).toEqual(['base/agent.json', 'vendor/base/agent.json']);
  });

  it('is not taken when its bytes were changed, and a record of any other shape is refused even with its digest', async () => {
    write('vendor/base/agent.json', json(agent('base', '1.0.0')));
    const graph = await inferredProjectGraph(root, seenByNx());
    const path = walkRecordPathFor(root);
    const real = readFileSync(path, 'utf8');
    // The copy Nx cannot see taken out of the record: the digest no longer matches.
    writeFileSync(path, real.replace(',"vendor/base/agent.json"', ''));
    expect(readFileSync(path, 'utf8')).not.toBe(real);
    let seen = answers(graph, SLUGS);
    expect(seen.stats.recorded).toBeUndefined();
    expect(seen.bySlug).toEqual(truth(SLUGS));
    const format = JSON.parse(real).format as string;
    const forged: unknown[] = [
      { format, files: ['base/agent.json', '../outside/agent.json'] },
      { format, files: ['base/agent.json', 'node_modules/x/agent.json'] },
      { format, files: ['base/agent.json', 'a//agent.json'] },
      { format, files: ['base/agent.json', './agent.json'] },
      { format, files: ['base/agent.json', 'x/notes.json'] },
      { format, files: ['base/agent.json', 'base/agent.json'] },
      { format, files: ['base/agent.json', 7] },
      { format, files: ['a\\b/agent.json'] },
      { format, files: '/etc/agent.json' },
      { format: 'another/v9', files: ['base/agent.json'] },
      ['base/agent.json'],
    ];
    for (const value of forged) {
      const text = JSON.stringify(value);
      writeFileSync(path, text);
      seen = answers(graphStating(graph, digestOf(text)), SLUGS);
      expect(seen.stats.recorded, text).toBeUndefined();
      expect(seen.bySlug, text).toEqual(truth(SLUGS));
    }
    writeFileSync(path, '{ not json');
    seen = answers(graphStating(graph, digestOf('{ not json')), SLUGS);
    expect(seen.stats.recorded).toBeUndefined();
    // A well-formed record whose digest the graph holds is taken as it stands: that is the promise.
    const narrower = JSON.stringify({ format, files: ['base/agent.json', 'parent/agent.json'] });
    writeFileSync(path, narrower);
    seen = answers(graphStating(graph, digestOf(narrower)), SLUGS);
    expect(seen.stats.recorded).toBe(true);
    expect(seen.bySlug['other']).toEqual([]);
  });

  it('is never read through a link or from a FIFO, and inference replaces either at its place, never writing through', async () => {
    const graph = await inferredProjectGraph(root, seenByNx());
    const path = walkRecordPathFor(root);
    const format = JSON.parse(readFileSync(path, 'utf8')).format as string;
    // 1. A link to a well-formed record outside the data folder, which the graph's digest names.
    const narrower = JSON.stringify({ format, files: ['base/agent.json', 'parent/agent.json'] });
    const outside = join(root, 'outside.json');
    writeFileSync(outside, narrower);
    rmSync(path);
    symlinkSync(outside, path);
    let seen = answers(graphStating(graph, digestOf(narrower)), SLUGS);
    expect(seen.stats.recorded).toBeUndefined(); // not followed: walked
    expect(seen.bySlug).toEqual(truth(SLUGS));
    const relinked = await inferredProjectGraph(root, seenByNx());
    expect(readFileSync(outside, 'utf8')).toBe(narrower); // the link's target untouched
    expect(lstatSync(path).isFile()).toBe(true);
    expect(answers(relinked, SLUGS).stats.recorded).toBe(true);
    // 2. A FIFO where the record stands: opened without blocking, refused, then replaced.
    rmSync(path);
    expect(spawnSync('mkfifo', [path]).status).toBe(0);
    seen = answers(graph, SLUGS);
    expect(seen.stats.recorded).toBeUndefined();
    expect(seen.bySlug).toEqual(truth(SLUGS));
    const refifoed = await inferredProjectGraph(root, seenByNx());
    expect(lstatSync(path).isFile()).toBe(true);
    expect(answers(refifoed, SLUGS).stats.recorded).toBe(true);
  });

  it('is not taken when two projects state different digests, or a digest of another shape', async () => {
    const graph = await inferredProjectGraph(root, seenByNx());
    const walk = recordedWalkOf(graph) as string;
    const nodes = structuredClone(graph.nodes);
    const second = agentdefOf(Object.values(nodes).find((node) => agentdefOf(node).walk === undefined));
    second.walk = digestOf('another');
    expect(recordedWalkOf({ ...graph, nodes })).toBeUndefined();
    second.walk = walk; // the same digest twice is one
    expect(recordedWalkOf({ ...graph, nodes })).toBe(walk);
    for (const odd of [7, '', 'short', `${walk}=`, `../${walk.slice(3)}`]) {
      second.walk = odd;
      expect(recordedWalkOf({ ...graph, nodes }), String(odd)).toBeUndefined();
    }
  });

  it('is neither made nor stated when inference runs in the Nx daemon, whose graph outlives the command', async () => {
    const before = process.env.NX_DAEMON_PROCESS;
    process.env.NX_DAEMON_PROCESS = 'true';
    let graph: ProjectGraph;
    try {
      graph = await inferredProjectGraph(root, seenByNx());
    } finally {
      if (before === undefined) delete process.env.NX_DAEMON_PROCESS;
      else process.env.NX_DAEMON_PROCESS = before;
    }
    expect(recordedWalkOf(graph)).toBeUndefined();
    expect(existsSync(walkRecordPathFor(root))).toBe(false);
    const { bySlug, stats } = answers(graph, SLUGS);
    expect(stats.recorded).toBeUndefined();
    expect(stats.listed).toBeGreaterThan(0); // walked itself
    expect(bySlug).toEqual(truth(SLUGS));
  });
});
