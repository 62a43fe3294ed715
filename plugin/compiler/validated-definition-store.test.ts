/**
 * Clean validations kept between processes: a plan that takes them from the store is the plan
 * made without it (same bytes, same diagnostics, same sources), an edited file never meets its old
 * entry, only clean results are kept, and the entries are untrusted: a truncated, malformed,
 * linked or foreign-version entry, or one that claims a malformed text clean, changes nothing.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RULE_OPTIONS } from '../definition/rules/rule';
import { planAgent, type PlanAgentResult } from './compile';
import { serializePlan } from './plan';
import { agent, json, tempWorkspace, type TempWorkspace } from './test-support';
import { openValidatedDefinitionStore, type ValidatedDefinitionStore } from './validated-definition-store';

let ws: TempWorkspace | undefined;
afterEach(() => ws?.remove());

const VERSION = '9.9.9-test';

function workspace(): TempWorkspace {
  return tempWorkspace({
    'agents/root/agent.json': agent('root', '1.0.0', {
      nodes: [
        ['child', '1.0.0'],
        ['other', '2.0.0'],
      ],
    }),
    'agents/child/agent.json': agent('child', '1.0.0'),
    'agents/other/agent.json': agent('other', '2.0.0'),
  });
}

const storeFolder = (root: string) => join(root, '.nx', 'workspace-data', 'agentdef-validated-definitions');
const entries = (root: string) => (existsSync(storeFolder(root)) ? readdirSync(storeFolder(root)).sort() : []);
/** What an entry says: a link's target (as the store writes them), or a file's text. */
const entryText = (path: string) =>
  lstatSync(path).isSymbolicLink() ? readlinkSync(path) : readFileSync(path, 'utf8');
/** Replaces the entry at `path` by a file holding `text` (never written through the link that stands there). */
const forgeFile = (path: string, text: string) => {
  rmSync(path, { force: true });
  writeFileSync(path, text);
};
/** Replaces the entry at `path` by a link whose target is `text`. */
const forgeLink = (path: string, text: string) => {
  rmSync(path, { force: true });
  symlinkSync(text, path);
};

/** A plan as the plan executor makes one: the store opened, used and saved. */
async function planWithStore(root: string, version = VERSION): Promise<PlanAgentResult> {
  const store = openValidatedDefinitionStore(storeFolder(root), version);
  const result = await planAgent({ file: 'agents/root/agent.json', workspaceRoot: root, validatedDefinitions: store });
  store.save();
  return result;
}

const planWithout = (root: string) => planAgent({ file: 'agents/root/agent.json', workspaceRoot: root });

/** Everything a caller sees of a plan. */
function seen(result: PlanAgentResult) {
  return {
    plan: result.plan ? serializePlan(result.plan) : undefined,
    diagnostics: result.diagnostics,
    sources: [...result.sources],
    ioError: result.ioError,
  };
}

async function expectSamePlans(root: string, version = VERSION): Promise<PlanAgentResult> {
  const kept = await planWithStore(root, version);
  expect(seen(kept)).toEqual(seen(await planWithout(root)));
  return kept;
}

describe('the validated-definition store', () => {
  it('gives the plan made without it, first filling the store, then from it', async () => {
    ws = workspace();
    const first = await expectSamePlans(ws.root);
    expect(first.plan).toBeDefined();
    expect(entries(ws.root)).toHaveLength(3); // root, child, other: all clean
    // Each entry a link whose target is the digest (one readlink to read it).
    for (const name of entries(ws.root))
      expect(lstatSync(join(storeFolder(ws.root), name)).isSymbolicLink()).toBe(true);
    const kept = entries(ws.root).map((name) => entryText(join(storeFolder(ws!.root), name)));
    expect(kept.every((digest) => /^[0-9a-f]{64}$/.test(digest))).toBe(true);
    // The digests kept are the plan's own.
    expect([...kept].sort()).toEqual(first.plan!.nodes.map((node) => node.digest).sort());
    await expectSamePlans(ws.root);
    expect(entries(ws.root)).toHaveLength(3);
  });

  it('takes a clean validation from the store: the rules do not run again for the same bytes', async () => {
    ws = workspace();
    await planWithStore(ws.root);
    // An entry is only ever the digest: with every entry rewritten to another digest, the plan
    // shows it was taken from the store (and so that the store, not a validation, answered).
    // Entries as the store writes them (links), and as it writes them where no link can be made (files).
    const names = entries(ws.root);
    for (const forge of [forgeLink, forgeFile]) {
      const forgedDigest = (forge === forgeLink ? 'e' : 'f').repeat(64);
      for (const name of names) forge(join(storeFolder(ws.root), name), forgedDigest);
      const fromStore = await planWithStore(ws.root);
      expect(fromStore.plan?.nodes.map((node) => node.digest)).toEqual([forgedDigest, forgedDigest, forgedDigest]);
    }
    expect(entries(ws.root)).toEqual(names);
  });

  it('never uses an entry for bytes that changed: edited files are validated again', async () => {
    ws = workspace();
    await expectSamePlans(ws.root);
    // A rule error, a schema error, a syntax error, then another clean definition.
    const child = agent('child', '1.0.0');
    const edits = [
      json({ ...child, capabilityContract: { ...child.capabilityContract, tools: [{ name: 'x' }, { name: 'x' }] } }),
      json({ ...child, schemaVersion: 'agent-definition/v0' }),
      `${json(child).slice(0, -3)}\n`,
      json({ ...child, identity: { ...child.identity, name: 'a renamed child' } }),
      json({ ...child, identity: { ...child.identity, name: 'a renamed child' } }).replace('{', '{ '),
    ];
    for (const text of edits) {
      ws.write('agents/child/agent.json', text);
      await expectSamePlans(ws.root);
      await expectSamePlans(ws.root);
    }
  });

  it('keeps only clean results: a definition with any finding is validated every time', async () => {
    ws = workspace();
    const child = agent('child', '1.0.0');
    // A warning and no error: the plan succeeds, and the warning is reported by every plan.
    ws.write('agents/child/agent.json', {
      ...child,
      memoryContract: { ...child.memoryContract, workingSetTokens: 1_000_000 },
    });
    const first = await expectSamePlans(ws.root);
    expect(first.diagnostics.length).toBeGreaterThan(0);
    expect(first.diagnostics.some((d) => d.file === 'agents/child/agent.json')).toBe(true);
    expect(entries(ws.root)).toHaveLength(2); // root and other only
    const second = await expectSamePlans(ws.root);
    expect(second.diagnostics).toEqual(first.diagnostics);
    // YAML is never kept.
    ws.write('agents/child/agent.json', '{}\n');
    ws.write('agents/child/agent.yaml', `identity:\n  slug: child\n  versionSemver: 1.0.0\n`);
    await expectSamePlans(ws.root);
  });

  it('ignores entries that are truncated, malformed, linked, not files, or of another version', async () => {
    ws = workspace();
    await planWithStore(ws.root);
    const folder = storeFolder(ws.root);
    const names = entries(ws.root);
    const good = entryText(join(folder, names[0]!));
    for (const text of ['', good.slice(0, 40), `${good}\n`, `"${good}"`, good.toUpperCase(), `${good}0`, 'null']) {
      for (const forge of text === '' ? [forgeFile] : [forgeFile, forgeLink]) {
        for (const name of names) forge(join(folder, name), text);
        await expectSamePlans(ws.root);
      }
    }
    // A folder where an entry stands is no entry either.
    for (const name of names) {
      rmSync(join(folder, name), { force: true });
      mkdirSync(join(folder, name, good), { recursive: true });
    }
    await expectSamePlans(ws.root);
    // Links (to a good entry elsewhere) are never followed; a FIFO never blocks the plan.
    ws.remove();
    ws = workspace();
    await planWithStore(ws.root);
    const linked = storeFolder(ws.root);
    const [first, second, third] = entries(ws.root);
    writeFileSync(join(ws.root, 'elsewhere'), 'f'.repeat(64));
    for (const name of [first!, second!]) {
      rmSync(join(linked, name));
      symlinkSync(join(ws.root, 'elsewhere'), join(linked, name));
    }
    rmSync(join(linked, third!));
    execFileSync('mkfifo', [join(linked, third!)]);
    const result = await planWithStore(ws.root);
    expect(result.plan?.nodes.map((node) => node.digest)).not.toContain('f'.repeat(64));
    expect(seen(result)).toEqual(seen(await planWithout(ws.root)));
    // Entries of another agentdef version are never met: the plan validates, and keeps its own.
    ws.remove();
    ws = workspace();
    await planWithStore(ws.root, '0.0.1-other');
    for (const name of entries(ws.root)) forgeLink(join(storeFolder(ws.root), name), 'f'.repeat(64));
    const other = await planWithStore(ws.root);
    expect(other.plan?.nodes.map((node) => node.digest)).not.toContain('f'.repeat(64));
    expect(entries(ws.root)).toHaveLength(6);
  });

  it('holds a forged entry to the schema: a malformed tree is never taken as clean', async () => {
    ws = workspace();
    const child = agent('child', '1.0.0');
    const malformed = json({ ...child, runtimeRequirements: undefined, composition: 7 });
    ws.write('agents/child/agent.json', malformed);
    // An entry for exactly these bytes, as a forger who knows the key scheme would write it.
    const store: ValidatedDefinitionStore = openValidatedDefinitionStore(storeFolder(ws.root), VERSION);
    mkdirSync(storeFolder(ws.root), { recursive: true });
    const unparsable = '{ "identity": ';
    for (const forge of [forgeFile, forgeLink]) {
      ws.write('agents/child/agent.json', malformed);
      forge(join(storeFolder(ws.root), store.keyOf(malformed, DEFAULT_RULE_OPTIONS)), 'a'.repeat(64));
      forge(join(storeFolder(ws.root), store.keyOf(unparsable, DEFAULT_RULE_OPTIONS)), 'a'.repeat(64));
      const result = await expectSamePlans(ws.root);
      expect(result.plan).toBeUndefined();
      expect(result.diagnostics.some((d) => d.file === 'agents/child/agent.json' && d.severity === 'error')).toBe(true);
      ws.write('agents/child/agent.json', unparsable);
      expect((await expectSamePlans(ws.root)).plan).toBeUndefined();
    }
  });

  it('reads as the plan without it: a link out of the workspace, or out of a nested workspace root, refused the same', async () => {
    ws = workspace();
    const outside = tempWorkspace({ 'elsewhere/agent.json': agent('child', '1.0.0') });
    try {
      // The walk never enters a link; the file a plan is asked for may be one.
      mkdirSync(join(ws.root, 'agents/link'));
      symlinkSync(join(outside.root, 'elsewhere/agent.json'), join(ws.root, 'agents/link/agent.json'));
      // A folder with its own nx.json is its files' root: a link from there to a sibling is refused.
      ws.write('agents/nested/nx.json', '{}\n');
      symlinkSync(join(ws.root, 'agents/other/agent.json'), join(ws.root, 'agents/nested/agent.json'));
      // Inside its root, a link is read.
      symlinkSync(join(ws.root, 'agents/child/agent.json'), join(ws.root, 'agents/child-link.json'));
      for (const file of ['agents/link/agent.json', 'agents/nested/agent.json', 'agents/child-link.json']) {
        const store = openValidatedDefinitionStore(storeFolder(ws.root), VERSION);
        const kept = await planAgent({ file, workspaceRoot: ws.root, validatedDefinitions: store });
        store.save();
        expect(seen(kept), file).toEqual(seen(await planAgent({ file, workspaceRoot: ws.root })));
        if (file === 'agents/child-link.json') expect(kept.plan, file).toBeDefined();
        else expect(kept.ioError, file).toMatch(/link to a file outside the workspace/);
      }
    } finally {
      outside.remove();
    }
  });

  it('refuses keys and digests that are not 64 hex digits, and cannot be written through a bad folder', () => {
    ws = workspace();
    const store = openValidatedDefinitionStore(storeFolder(ws.root), VERSION);
    store.remember('../escape', 'a'.repeat(64));
    store.remember('b'.repeat(64), 'not a digest');
    expect(store.cleanDigest('../escape')).toBeUndefined();
    expect(store.cleanDigest('b'.repeat(64))).toBeUndefined();
    store.save();
    expect(existsSync(storeFolder(ws.root))).toBe(false);
    // The folder is a file: nothing is written, nothing thrown.
    mkdirSync(join(ws.root, '.nx', 'workspace-data'), { recursive: true });
    writeFileSync(storeFolder(ws.root), 'not a folder');
    store.remember('c'.repeat(64), 'd'.repeat(64));
    expect(() => store.save()).not.toThrow();
    expect(readFileSync(storeFolder(ws.root), 'utf8')).toBe('not a folder');
  });
});
