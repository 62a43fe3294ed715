/**
 * The compile fuzz (issue 23, "no internal error on any input"): random definitions, made from
 * the repository's valid examples by mutations that mostly keep them valid (URLs, names, pins,
 * tools, budgets, runtime classes, unicode text) and sometimes break them anywhere (the
 * validator fuzz's mutations), go through the pure pipeline the CLI calls (`compileAgent`:
 * validate → resolve → plan → emit → write) for every target. The property: the result is a
 * success (files written to the output folder asked for) or located diagnostics (file, line,
 * column, JSON Pointer); never an internal error, never an I/O error, never a thrown exception,
 * and nothing written outside the output folder. Seeded (e2e/support/fast-check-seed.ts, or
 * FC_SEED) and bounded; fast-check prints the seed and the counterexample on failure.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync, mkdirSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  hostileString,
  loadExamples,
  mutate,
  mutation,
  replaceStringLeaf,
  serialize,
  type Example,
} from '../definition/__test-support__/definition-mutations';
import { MALFORMED_ENDPOINTS } from '../runtime/__test-support__/malformed-urls';
import type { CompileTarget } from '../targets/targets';
import type { Bundler } from './bundler';
import { createEsbuildBundler } from './bundle';
import { compileAgent } from './compile';
import { treeSnapshot } from './test-support';

const TARGETS: readonly CompileTarget[] = ['cloudflare-dynamic-worker', 'hb3', 'local-mac'];
const REPO_ROOT = join(__dirname, '..', '..');

type Obj = Record<string, any>;

const urlText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...MALFORMED_ENDPOINTS.map((m) => m.url)),
  fc.webUrl(),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.tuple(fc.constantFrom('http://', 'https://', 'ftp://', 'urn:', ''), hostileString).map(([s, t]) => s + t),
  fc
    .tuple(
      fc.constantFrom('http://', 'https://'),
      fc.stringMatching(/^[a-z0-9.\-[\]:%^|@_]{0,24}$/),
      fc.constantFrom('', '/', '/v1', ':8080', ':99999', ':0'),
    )
    .map(([s, h, t]) => s + h + t),
);

const nameText: fc.Arbitrary<string> = fc.oneof(
  fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,20}$/),
  fc.stringMatching(/^[A-Za-z_$][A-Za-z0-9_$-]{0,10}$/),
  hostileString,
);

const number: fc.Arbitrary<number> = fc.oneof(
  fc.integer({ min: -5, max: 300_000 }),
  fc.constantFrom(0, 1, 2 ** 31, 2 ** 53 + 1, 1e308, 0.5, -1),
);

/** A change that usually keeps a definition valid, so the emitters see it. */
type Edit = (d: Obj, pick: number) => void;

const at = (list: unknown, pick: number): Obj | undefined =>
  Array.isArray(list) && list.length > 0 ? (list[pick % list.length] as Obj) : undefined;

const toolOf = (provenance: string, id: string, extra: Obj = {}): Obj => ({
  id,
  name: id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 60) || 't',
  version: '1.0.0',
  provenance,
  risk: 'low',
  ...extra,
});

const edits: fc.Arbitrary<Edit> = fc.oneof(
  // URLs: a tool endpoint, the repository URL, the AgentFacts reference.
  fc.tuple(urlText, fc.nat()).map(([url, i]) => (d: Obj, pick: number) => {
    const tool = at(d['toolInventory'] ?? [], pick);
    if (tool) tool.endpoints = [...new Set([...(tool.endpoints ?? []).slice(0, i % 3), url])];
  }),
  urlText.map((url) => (d: Obj) => {
    if (d['metadata']?.provenance) d['metadata'].provenance.repo = url;
  }),
  urlText.map((url) => (d: Obj) => {
    if (d['identity']) d['identity'].nandaFactsRef = url;
  }),
  // Names: tool ids and names, skill ids, the agent's name and slug.
  fc.tuple(nameText, fc.constantFrom('id', 'name')).map(([text, field]) => (d: Obj, pick: number) => {
    const tool = at(d['toolInventory'] ?? [], pick);
    if (tool) tool[field] = text;
  }),
  nameText.map((text) => (d: Obj, pick: number) => {
    const skill = at(d['capabilityContract']?.skills ?? [], pick);
    if (skill) skill.id = text;
  }),
  fc.tuple(nameText, fc.constantFrom('name', 'slug')).map(([text, field]) => (d: Obj) => {
    if (d['identity']) d['identity'][field] = text;
  }),
  // Pins: model, version, provider, tier, sampling.
  fc
    .record({
      field: fc.constantFrom('modelId', 'modelVersion', 'providerId', 'tier', 'checkpointId'),
      value: fc.oneof(
        nameText,
        fc.constantFrom(
          'openai',
          'anthropic',
          'local-ollama',
          'custom:acme-tuned',
          'small',
          'frontier',
          'local',
          'tuned',
          'gpt-5',
          '2025-08-07',
          'llama3.1:8b',
          'ckpt:acme/x',
        ),
      ),
    })
    .map(({ field, value }) => (d: Obj, pick: number) => {
      const pin = at(d['modelSet'] ?? [], pick);
      if (pin) pin[field] = value;
    }),
  fc
    .tuple(fc.constantFrom('temperature', 'maxTokens', 'topP', 'seed'), number)
    .map(([k, v]) => (d: Obj, pick: number) => {
      const pin = at(d['modelSet'] ?? [], pick);
      if (pin?.samplingParams) pin.samplingParams[k] = v;
    }),
  // Tools: add one of each kind (mapped, unmapped, native, MCP over stdio or HTTP), or drop one.
  fc
    .tuple(
      fc.constantFrom(
        toolOf('skill-package', 'keyword-extract'),
        toolOf('skill-package', 'web-fetch', { endpoints: ['https://fetch.acme.dev'] }),
        toolOf('skill-package', 'unmapped-tool'),
        toolOf('native', 'rg'),
        toolOf('mcp', 'notes', { mcpServer: 'notes-mcp', mcpTransport: 'stdio' }),
        toolOf('mcp', 'search', { mcpServer: 'code-search-index', mcpTransport: 'http' }),
        toolOf('mcp', 'remote', { mcpServer: 'nowhere', mcpTransport: 'http' }),
      ),
      fc.boolean(),
    )
    .map(([tool, drop]) => (d: Obj, pick: number) => {
      const list: Obj[] = d['toolInventory'] ?? [];
      if (drop && list.length > 0) list.splice(pick % list.length, 1);
      else list.push(structuredClone(tool));
      d['toolInventory'] = list;
    }),
  // Budgets and limits.
  fc.tuple(fc.constantFrom('cpuMs', 'memoryMb', 'wallClockMs', 'maxSubrequests'), number).map(([k, v]) => (d: Obj) => {
    if (d['runtimeRequirements']?.limits) d['runtimeRequirements'].limits[k] = v;
  }),
  fc.tuple(fc.constantFrom('workingSetTokens', 'contextWindowBudget'), number).map(([k, v]) => (d: Obj) => {
    if (d['memoryContract']) d['memoryContract'][k] = v;
  }),
  fc
    .constantFrom('workers-only', 'workers-preferred', 'container-required', 'local-host-required')
    .map((cls) => (d: Obj) => {
      if (d['runtimeRequirements']) d['runtimeRequirements'].runtimeCapabilityClass = cls;
    }),
  // Unicode anywhere a string is.
  fc.tuple(fc.nat(), hostileString).map(([i, text]) => (d: Obj) => {
    Object.assign(d, replaceStringLeaf(d, i, text));
  }),
);

/** One fuzzed definition: an example, a few edits, sometimes one breaking mutation, as JSON or YAML. */
const fuzzedDefinition = fc
  .record({
    pick: fc.nat(),
    edits: fc.array(fc.tuple(edits, fc.nat()), { minLength: 1, maxLength: 3 }),
    breaking: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, mutation),
    format: fc.constantFrom<'json' | 'yaml'>('json', 'json', 'yaml'),
  })
  .map(({ pick, edits: chosen, breaking, format }) => ({ pick, chosen, breaking, format }));

let root: string;
let examples: Example[];
let before: Record<string, string>;
const bundlers = new Map<CompileTarget, Bundler>();
/** How many compiles ran and how many succeeded: the fuzz must reach the emitters, not stop at validation. */
const outcomes = { runs: 0, compiled: 0 };

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'agentdef-compile-fuzz-'));
  writeFileSync(join(root, 'nx.json'), '{}\n');
  cpSync(join(REPO_ROOT, 'examples'), join(root, 'examples'), { recursive: true });
  for (const file of ['tools.json', 'mcp.json']) cpSync(join(REPO_ROOT, file), join(root, file));
  mkdirSync(join(root, 'fuzz'));
  examples = loadExamples();
  before = treeSnapshot(join(root, 'examples'));
  for (const target of TARGETS) bundlers.set(target, createEsbuildBundler({ workspaceRoot: root }));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function compileEverywhere(text: string, format: 'json' | 'yaml'): Promise<void> {
  const file = `fuzz/agent.${format}`;
  rmSync(join(root, 'fuzz'), { recursive: true, force: true });
  mkdirSync(join(root, 'fuzz'));
  writeFileSync(join(root, file), text);
  for (const target of TARGETS) {
    const outDir = `dist/fuzz-${target}`;
    const label = `${target} on ${JSON.stringify(text.slice(0, 400))}`;
    let result: Awaited<ReturnType<typeof compileAgent>>;
    try {
      result = await compileAgent({ file, workspaceRoot: root, target, outDir, bundler: bundlers.get(target)! });
    } catch (error) {
      throw new Error(`compileAgent threw for ${label}: ${(error as Error).stack}`);
    }
    outcomes.runs++;
    expect(result.ioError, label).toBeUndefined();
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    for (const d of result.diagnostics) {
      expect(`${d.message} ${d.suggestion ?? ''}`, label).not.toMatch(/internal error|this is a bug/i);
      expect(d.file.length, label).toBeGreaterThan(0);
      expect(d.line, label).toBeGreaterThanOrEqual(1);
      expect(d.column, label).toBeGreaterThanOrEqual(1);
      expect(typeof d.path, label).toBe('string');
    }
    if (errors.length > 0) expect(result.files, label).toBeUndefined();
    else {
      outcomes.compiled++;
      expect(result.files?.length, label).toBeGreaterThan(0);
      expect(result.outDir, label).toBe(outDir);
    }
  }
  // Nothing written outside the output folders: the examples as they were, dist/ holds only outputs.
  expect(treeSnapshot(join(root, 'examples'))).toEqual(before);
  expect(readdirSync(root).sort()).toEqual(
    [
      'examples',
      'fuzz',
      'mcp.json',
      'nx.json',
      'tools.json',
      ...(readdirSync(root).includes('dist') ? ['dist'] : []),
    ].sort(),
  );
  if (readdirSync(root).includes('dist'))
    for (const name of readdirSync(join(root, 'dist')))
      expect(
        TARGETS.map((t) => `fuzz-${t}`),
        `dist/${name}`,
      ).toContain(name);
}

describe('compile fuzz: random definitions through validate, plan and every target', () => {
  it('succeeds or answers located diagnostics; never an internal error, a throw or a stray write', async () => {
    await fc.assert(
      fc.asyncProperty(fuzzedDefinition, async ({ pick, chosen, breaking, format }) => {
        const example = examples[pick % examples.length]!;
        const definition = structuredClone(example.value) as Obj;
        for (const [edit, p] of chosen) edit(definition, p);
        const value = breaking ? mutate(definition, [breaking]) : definition;
        await compileEverywhere(serialize(value, format), format);
      }),
      // 40 runs take about 30 s on 2 cores; COMPILE_FUZZ_RUNS explores further (with FC_SEED=random).
      { numRuns: Number(process.env['COMPILE_FUZZ_RUNS'] ?? 40) },
    );
    // The edits keep enough definitions valid that every run reaches the emitters many times.
    expect(outcomes.compiled, JSON.stringify(outcomes)).toBeGreaterThanOrEqual(outcomes.runs / 10);
    console.log(`compile fuzz: ${outcomes.compiled} of ${outcomes.runs} compiles succeeded`);
  });
});
