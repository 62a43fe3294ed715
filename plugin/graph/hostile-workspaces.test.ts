/**
 * Graph inference against hostile workspaces: project names that collide or that Nx cannot hold,
 * files handed in any order (or twice), and an inference cache that is garbage, lies about its
 * shape, was written for another file format, or is a FIFO. Inference must never throw (beyond
 * the AggregateCreateNodesError of located messages that keeps every other project), never block,
 * and give the same projects whatever the cache holds.
 */
import { AggregateCreateNodesError, type CreateNodesResult, type ProjectConfiguration } from '@nx/devkit';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  closeSync,
  constants,
  lstatSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, posix } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDependencies } from './create-dependencies';
import { createNodesV2 } from './create-nodes';
import { inferenceCachePath } from './inference-cache';
import { normalizePluginOptions } from './options';
import { definitionJson, dependenciesContext, nodesContext, tempWorkspace, type TempWorkspace } from './test-support';

const INFERRED = new Set([
  'agent.json',
  'agent.yaml',
  'agent.yml',
  'application.json',
  'application.yaml',
  'application.yml',
]);
const inferredFiles = (ws: TempWorkspace) => ws.files().filter((f) => INFERRED.has(posix.basename(f)));

interface Outcome {
  results: ReadonlyArray<readonly [string, CreateNodesResult]>;
  /** `[file, message]` of every reported problem. */
  errors: Array<[string | null, string]>;
}

/** Runs inference; anything thrown but the AggregateCreateNodesError fails the test. */
async function infer(ws: TempWorkspace, files = inferredFiles(ws)): Promise<Outcome> {
  try {
    return { results: await createNodesV2[1](files, {}, nodesContext(ws.root)), errors: [] };
  } catch (error) {
    if (!(error instanceof AggregateCreateNodesError)) throw error;
    return { results: error.partialResults, errors: error.errors.map(([file, e]) => [file, e.message]) };
  }
}

/** `name@root` of every inferred project, in result order. */
const projectNames = (results: Outcome['results']) =>
  results.flatMap(([, r]) => Object.entries(r.projects ?? {}).map(([root, p]) => `${p.name}@${root}`));

const cacheFile = (ws: TempWorkspace) => inferenceCachePath(ws.root, normalizePluginOptions({}).hash);

describe('graph inference on hostile workspaces', () => {
  let ws: TempWorkspace;
  const savedEnv = { ...process.env };
  beforeEach(() => {
    delete process.env.NX_WORKSPACE_DATA_DIRECTORY;
    delete process.env.NX_PROJECT_GRAPH_CACHE_DIRECTORY;
  });
  afterEach(() => {
    ws?.remove();
    process.env = { ...savedEnv };
  });

  describe('project names', () => {
    it('reports every second project that would take a name already taken (folder fallbacks, application ids, an id equal to a slug) and keeps the first', async () => {
      ws = tempWorkspace({
        // an unreadable slug falls back to the folder name, which another agent's slug holds
        'agents/foo/agent.json': '{ "identity": ',
        'agents/bar/agent.json': definitionJson({ slug: 'foo' }),
        // two unreadable definitions in folders of one name
        'a/x/agent.json': '{ broken',
        'b/x/agent.json': '{ broken',
        // two manifests with one id, and a manifest id equal to an agent slug
        'apps/one/application.json': JSON.stringify({ id: 'dup' }),
        'apps/two/application.json': JSON.stringify({ id: 'dup' }),
        'apps/three/application.json': JSON.stringify({ id: 'bar-agent' }),
        'agents/baz/agent.json': definitionJson({ slug: 'bar-agent' }),
        'agents/fine/agent.json': definitionJson({ slug: 'fine' }),
      });
      const { results, errors } = await infer(ws);
      const names = projectNames(results).map((n) => n.split('@')[0]);
      expect(new Set(names).size).toBe(names.length); // Nx refuses the whole graph otherwise
      expect(projectNames(results).sort()).toEqual([
        'bar-agent@agents/baz',
        'dup@apps/one',
        'fine@agents/fine',
        'foo@agents/bar',
        'x@a/x',
      ]);
      expect(errors).toEqual([
        [
          'agents/foo/agent.json',
          expect.stringMatching(
            /^agents\/foo\/agent\.json: .*named after its folder, "foo".*agents\/bar\/agent\.json:5:13.*\/identity\/slug/,
          ),
        ],
        [
          'b/x/agent.json',
          expect.stringMatching(
            /^b\/x\/agent\.json: .*named after its folder, "x".*a\/x\/agent\.json.*\/identity\/slug/,
          ),
        ],
        [
          'apps/three/application.json',
          expect.stringMatching(
            /^apps\/three\/application\.json:1:7: id "bar-agent" .*agents\/baz\/agent\.json:5:13.*change \/id/,
          ),
        ],
        [
          'apps/two/application.json',
          expect.stringMatching(
            /^apps\/two\/application\.json:1:7: id "dup" .*apps\/one\/application\.json:1:7.*change \/id/,
          ),
        ],
      ]);
    });

    it('gives a stated slug or id its name before any folder name, whichever comes first by path', async () => {
      ws = tempWorkspace({
        'a/foo/agent.json': '{ broken',
        'a/app/application.json': '{ broken',
        'z/agent.json': definitionJson({ slug: 'foo' }),
        'z2/application.json': JSON.stringify({ id: 'app' }),
      });
      const { results, errors } = await infer(ws);
      expect(projectNames(results).sort()).toEqual(['app@z2', 'foo@z']);
      expect(errors).toEqual([
        [
          'a/foo/agent.json',
          expect.stringMatching(
            /^a\/foo\/agent\.json: .*named after its folder, "foo", .*z\/agent\.json:5:13 \(its identity\.slug\).*\/identity\/slug$/,
          ),
        ],
        [
          'a/app/application.json',
          expect.stringMatching(
            /^a\/app\/application\.json: its id is unreadable.*"app", .*z2\/application\.json:1:7 \(its id\).*in \/id$/,
          ),
        ],
      ]);
    });

    it('refuses, with a located message, a name Nx mistakes for a built-in property (constructor), and keeps every other project', async () => {
      ws = tempWorkspace({
        'agents/ctor/agent.json': definitionJson({ slug: 'constructor' }),
        'apps/ctor/application.json': JSON.stringify({ id: 'constructor' }),
        'agents/toString/agent.json': '{ broken',
        'agents/fine/agent.json': definitionJson({ slug: 'fine', pins: ['constructor@1.0.0'] }),
      });
      const { results, errors } = await infer(ws);
      expect(projectNames(results)).toEqual(['fine@agents/fine']);
      expect(errors).toEqual([
        [
          'agents/ctor/agent.json',
          expect.stringMatching(
            /^agents\/ctor\/agent\.json:5:13: identity\.slug "constructor" cannot name an Nx project.*change \/identity\/slug/,
          ),
        ],
        [
          'agents/toString/agent.json',
          expect.stringMatching(
            /^agents\/toString\/agent\.json: .*"toString" cannot name an Nx project.*\/identity\/slug/,
          ),
        ],
        [
          'apps/ctor/application.json',
          expect.stringMatching(
            /^apps\/ctor\/application\.json:1:7: id "constructor" cannot name an Nx project.*change \/id/,
          ),
        ],
      ]);
    });
  });

  it('infers the same projects whatever order Nx hands the files in, and a file handed twice counts once', async () => {
    ws = tempWorkspace({
      'agents/a/agent.json': definitionJson({ slug: 'a', pins: ['b@1.0.0'] }),
      'agents/b/agent.json': definitionJson({ slug: 'b', pins: ['a@1.0.0'] }),
      'agents/b/agent.yaml': 'identity:\n  slug: b-yaml\n',
      'agents/c/agent.json': definitionJson({ slug: 'a', version: '2.0.0' }),
      'apps/x/application.json': JSON.stringify({ id: 'x' }),
    });
    const files = inferredFiles(ws);
    const sorted = await infer(ws, files);
    expect(sorted.errors.map(([file]) => file)).toEqual(['agents/b/agent.yaml', 'agents/c/agent.json']);
    for (const order of [
      [...files].reverse(),
      [files[2]!, files[4]!, files[0]!, files[3]!, files[1]!],
      [...files, ...files],
    ]) {
      rmSync(join(ws.root, '.nx'), { recursive: true, force: true });
      const other = await infer(ws, order);
      expect(JSON.stringify(other)).toBe(JSON.stringify(sorted));
    }
  });

  describe('the inference cache', () => {
    it('is keyed by format too: a YAML text served for a .json file of the same bytes is a stale summary', async () => {
      const yamlText = 'identity:\n  slug: twin\n  versionSemver: 1.0.0\n';
      ws = tempWorkspace({ 'a/agent.yaml': yamlText });
      await infer(ws); // caches the YAML summary of these bytes
      ws.write('b/agent.json', yamlText); // not JSON: unparsed, so named after its folder
      const warm = await infer(ws);
      rmSync(join(ws.root, '.nx'), { recursive: true, force: true });
      const cold = await infer(ws);
      expect(projectNames(cold.results)).toEqual(['twin@a', 'b@b']);
      expect(JSON.stringify(warm)).toBe(JSON.stringify(cold));
    });

    it('ignores entries of the wrong shape (never throws, never trusts them): the projects are those of a cold run', async () => {
      ws = tempWorkspace({
        'agents/a/agent.json': definitionJson({ slug: 'a', pins: ['b@1.0.0', 'c@1.0.0'] }),
        'agents/b/agent.json': definitionJson({ slug: 'b' }),
        'agents/t/agent.json': definitionJson({ slug: 't' }),
      });
      const cold = await infer(ws);
      const keys = Object.keys((JSON.parse(readFileSync(cacheFile(ws), 'utf8')) as { entries: object }).entries);
      expect(keys).toHaveLength(3);
      const hostile: unknown[] = [
        { pins: 5, parsed: true, slug: 'a' },
        { pins: [null, 'x'], parsed: true },
        { pins: [{ slug: '../../../etc', version: 'x/../../y', line: 1 }], parsed: true },
        { pins: [], parsed: true, slug: 'Evil Name/..' },
        { pins: [], parsed: true, toolIds: 'abc' },
        { pins: [], parsed: 'yes' },
        { pins: [], parsed: true, slugAt: { line: 'one' }, slug: 'a' },
        null,
        [1, 2],
        'summary',
      ];
      for (const entry of hostile) {
        const data = JSON.parse(readFileSync(cacheFile(ws), 'utf8')) as { entries: Record<string, unknown> };
        data.entries = Object.fromEntries(keys.map((key) => [key, entry]));
        writeFileSync(cacheFile(ws), JSON.stringify(data));
        expect(JSON.stringify(await infer(ws))).toBe(JSON.stringify(cold));
      }
      // prototype-polluting keys are plain data, never a prototype
      writeFileSync(cacheFile(ws), `{"__proto__":{"polluted":1},"format":"x","entries":{"__proto__":{"pins":5}}}`);
      expect(JSON.stringify(await infer(ws))).toBe(JSON.stringify(cold));
      expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    });

    it('never opens a cache file that is a FIFO (Nx would block), nor follows it out of its folder; writes replace the link, never its target', async () => {
      ws = tempWorkspace({ 'agents/a/agent.json': definitionJson({ slug: 'a' }) });
      await infer(ws);
      const path = cacheFile(ws);
      // A well-formed cache whose every entry names another project: served, it would show.
      const poisoned = JSON.parse(readFileSync(path, 'utf8')) as { entries: Record<string, { slug?: string }> };
      for (const entry of Object.values(poisoned.entries)) entry.slug = 'poisoned';
      const poisonedText = JSON.stringify(poisoned);

      // 1. A link to a file outside the cache folder: neither read nor written through.
      const outside = join(ws.root, 'outside.json');
      writeFileSync(outside, poisonedText);
      rmSync(path);
      symlinkSync(outside, path);
      expect(projectNames((await infer(ws)).results)).toEqual(['a@agents/a']);
      expect(readFileSync(outside, 'utf8')).toBe(poisonedText);
      expect(lstatSync(path).isFile()).toBe(true);

      // 2. A link to a FIFO beside it, with a writer waiting to hand it the poisoned cache: a reader
      // that opened it would get the text (and the writer would be gone); one that never opened it
      // leaves the text for this test to read.
      const fifo = join(path, '..', 'fifo');
      const made = spawn('mkfifo', [fifo]);
      expect((await once(made, 'exit'))[0]).toBe(0);
      rmSync(path);
      symlinkSync(fifo, path);
      const writer = spawn(
        process.execPath,
        ['-e', 'require("fs").writeFileSync(process.argv[1], process.argv[2])', fifo, poisonedText],
        { stdio: 'ignore' },
      );
      try {
        expect(projectNames((await infer(ws)).results)).toEqual(['a@agents/a']);
      } finally {
        const fd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK); // lets a still-waiting writer through
        try {
          if (writer.exitCode === null) await once(writer, 'exit');
          const buffer = Buffer.alloc(poisonedText.length + 1);
          let length = 0;
          for (let read = -1; read !== 0 && length < buffer.length; length += read)
            read = readSync(fd, buffer, length, buffer.length - length, null);
          // Still in the FIFO: inference never took it.
          expect(buffer.subarray(0, length).toString()).toBe(poisonedText);
        } finally {
          closeSync(fd);
        }
      }
    });
  });

  it('draws edges only from well-formed pins, whatever else a project.json merged into the metadata', async () => {
    ws = tempWorkspace({
      'agents/a/agent.json': definitionJson({ slug: 'a', pins: ['b@1.0.0'] }),
      'agents/b/agent.json': definitionJson({ slug: 'b' }),
    });
    const context = dependenciesContext(ws, (await infer(ws)).results);
    const a = context.projects['a'] as ProjectConfiguration & { metadata: { agentdef: { pins: unknown[] } } };
    a.metadata.agentdef.pins = [null, 7, 'b@1.0.0', { slug: 5, version: '1.0.0' }, ...a.metadata.agentdef.pins];
    const edges = await createDependencies({}, context);
    expect(edges.map((e) => `${e.source}->${e.target}`)).toEqual(['a->b']);
  });
});

describe('normalizePluginOptions on options of the wrong type', () => {
  it('says the options must be an object instead of listing a string’s indexes as unknown options', () => {
    for (const options of ['str', ['maxDepth'], 5, true]) {
      expect(() => normalizePluginOptions(options as never)).toThrow(
        /^agentdef plugin options \(the `options` of its `nx\.json` `plugins` entry\) must be an object/,
      );
    }
  });
});
