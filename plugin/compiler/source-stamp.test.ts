/**
 * The source stamp against real git repositories in temp folders, and compile writing it into
 * plan.json: outside the plan digest, deterministic for the same worktree state.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compileAgent } from './compile';
import { computePlanDigest, type CompilePlan } from './plan';
import { readSourceStamp, readSourceStampAsync, sharedSourceStampReader, stepwiseSourceStamp } from './source-stamp';
import { gitIn, initCommitted } from './__test-support__/git-repo';
import { digestOf } from './canonical-json';

const REPO = join(__dirname, '..', '..');
let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agentdef-stamp-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function workspace(agent: string): void {
  writeFileSync(join(root, 'nx.json'), '{}\n');
  writeFileSync(join(root, '.gitignore'), 'dist/\n');
  mkdirSync(join(root, 'examples', agent), { recursive: true });
  writeFileSync(join(root, 'examples', agent, 'agent.json'), readFileSync(join(REPO, 'examples', agent, 'agent.json')));
  for (const file of ['tools.json', 'mcp.json']) writeFileSync(join(root, file), readFileSync(join(REPO, file)));
}

const planOf = (agent: string): CompilePlan =>
  JSON.parse(readFileSync(join(root, 'dist', 'agents', agent, 'plan.json'), 'utf8')) as CompilePlan;

describe('readSourceStamp', () => {
  it('outside a git repository: no commit, with the reason', () => {
    expect(readSourceStamp(root)).toEqual({
      commit: null,
      dirty: null,
      reason: 'the definition is not inside a git repository',
    });
  });

  it('in a repository with no commit yet: no commit, dirty when files wait to be committed', () => {
    writeFileSync(join(root, 'a.txt'), 'a\n');
    gitIn(root, 'init', '-q', '-b', 'main');
    expect(readSourceStamp(root)).toEqual({
      commit: null,
      dirty: true,
      reason: 'the git repository has no commit yet',
    });
  });

  it('a clean worktree: the 40-hex HEAD, not dirty, from any folder inside it', () => {
    mkdirSync(join(root, 'deep', 'er'), { recursive: true });
    writeFileSync(join(root, 'deep', 'er', 'a.txt'), 'a\n');
    const head = initCommitted(root);
    expect(head).toMatch(/^[0-9a-f]{40}$/);
    expect(readSourceStamp(join(root, 'deep', 'er'))).toEqual({ commit: head, dirty: false });
  });

  it('dirty for a modified, a staged, a deleted or an untracked file anywhere in the worktree; not for an ignored one', () => {
    writeFileSync(join(root, '.gitignore'), 'dist/\n');
    writeFileSync(join(root, 'a.txt'), 'a\n');
    mkdirSync(join(root, 'sub'));
    writeFileSync(join(root, 'sub', 'b.txt'), 'b\n');
    const head = initCommitted(root);
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'dist', 'out.json'), '{}\n');
    expect(readSourceStamp(join(root, 'sub'))).toEqual({ commit: head, dirty: false });

    writeFileSync(join(root, 'a.txt'), 'changed\n');
    expect(readSourceStamp(join(root, 'sub'))).toEqual({ commit: head, dirty: true });
    gitIn(root, 'add', 'a.txt');
    expect(readSourceStamp(join(root, 'sub')).dirty).toBe(true);
    gitIn(root, 'checkout', '-q', 'HEAD', '--', 'a.txt');
    expect(readSourceStamp(join(root, 'sub')).dirty).toBe(false);

    rmSync(join(root, 'a.txt'));
    expect(readSourceStamp(join(root, 'sub')).dirty).toBe(true);
    gitIn(root, 'checkout', '-q', 'HEAD', '--', 'a.txt');

    writeFileSync(join(root, 'new.txt'), 'new\n');
    expect(readSourceStamp(join(root, 'sub')).dirty).toBe(true);
  });

  it('a definition git ignores is dirty even in a clean worktree: no commit holds it', () => {
    writeFileSync(join(root, '.gitignore'), 'ignored/\n');
    writeFileSync(join(root, 'a.txt'), 'a\n');
    const head = initCommitted(root);
    mkdirSync(join(root, 'ignored'));
    writeFileSync(join(root, 'ignored', 'agent.json'), '{}\n');
    expect(readSourceStamp(join(root, 'ignored'))).toEqual({ commit: head, dirty: false });
    expect(readSourceStamp(join(root, 'ignored'), join(root, 'ignored', 'agent.json'))).toEqual({
      commit: head,
      dirty: true,
    });
    expect(readSourceStamp(root, join(root, 'a.txt'))).toEqual({ commit: head, dirty: false });
  });
});

describe('one git status answers as git asked step by step does', () => {
  /** Every case of an ignore rule the definition may fall under, in one repository. */
  const DEFINITIONS = [
    'ignored/agent.json', // in an ignored folder
    'dirstar/agent.json', // every file of a folder ignored, not the folder
    'forced/agent.json', // tracked although its folder is ignored
    'forced/other.json', // ignored beside a tracked file
    'untracked/agent.json', // a folder with only ignored files
    'sub/deep/agent.json', // re-included by a nested .gitignore
    'keep/agent.json', // re-included by a negated rule
    'a.txt', // tracked, matching no rule
  ];

  function repository(): string {
    for (const folder of ['ignored', 'dirstar', 'forced', 'untracked', 'sub/deep', 'keep'])
      mkdirSync(join(root, folder), { recursive: true });
    writeFileSync(join(root, '.gitignore'), 'ignored/\n*.json\n!keep/agent.json\ndirstar/*\nforced/\n');
    writeFileSync(join(root, 'sub', 'deep', '.gitignore'), '!agent.json\n');
    writeFileSync(join(root, 'a.txt'), 'a\n');
    for (const file of ['forced/agent.json', 'sub/deep/agent.json', 'keep/agent.json'])
      writeFileSync(join(root, file), '{}\n');
    gitIn(root, 'init', '-q', '-b', 'main');
    gitIn(root, 'add', '-A');
    gitIn(root, 'add', '-f', 'forced/agent.json');
    gitIn(root, 'commit', '-q', '-m', 'first');
    for (const file of ['ignored/agent.json', 'dirstar/agent.json', 'forced/other.json', 'untracked/agent.json'])
      writeFileSync(join(root, file), '{}\n');
    return gitIn(root, 'rev-parse', 'HEAD').trim();
  }

  const stamps = async (file: string) => {
    const path = join(root, file);
    const folder = join(path, '..');
    return {
      one: readSourceStamp(folder, path),
      async: await readSourceStampAsync(folder, path),
      stepwise: stepwiseSourceStamp(folder, path),
    };
  };

  it('in a clean worktree, for a definition under every kind of ignore rule', async () => {
    const head = repository();
    const ignored = new Set(['ignored/agent.json', 'dirstar/agent.json', 'forced/other.json', 'untracked/agent.json']);
    for (const file of DEFINITIONS) {
      const { one, async, stepwise } = await stamps(file);
      expect({ file, ...stepwise }).toEqual({ file, commit: head, dirty: ignored.has(file) });
      expect(one).toEqual(stepwise);
      expect(async).toEqual(stepwise);
    }
  });

  it('in a dirty worktree, in one without a commit, and outside any repository', async () => {
    expect(await stamps('a.txt')).toEqual({ one: NOT_IN_GIT, async: NOT_IN_GIT, stepwise: NOT_IN_GIT });
    writeFileSync(join(root, 'a.txt'), 'a\n');
    gitIn(root, 'init', '-q', '-b', 'main');
    const none = { commit: null, dirty: true, reason: 'the git repository has no commit yet' };
    expect(await stamps('a.txt')).toEqual({ one: none, async: none, stepwise: none });
    repository();
    writeFileSync(join(root, 'a.txt'), 'changed\n');
    const { one, async, stepwise } = await stamps('keep/agent.json');
    expect(stepwise.dirty).toBe(true);
    expect(one).toEqual(stepwise);
    expect(async).toEqual(stepwise);
  });

  it('a shared reader (a compile session) answers each definition as git asked alone does, from one status kept for its life', async () => {
    const head = repository();
    const ignored = new Set(['ignored/agent.json', 'dirstar/agent.json', 'forced/other.json', 'untracked/agent.json']);
    const shared = sharedSourceStampReader();
    const [first, ...rest] = DEFINITIONS;
    const firstStamp = await shared(join(root, first!, '..'), join(root, first!));
    expect(firstStamp).toEqual({ commit: head, dirty: ignored.has(first!) });
    // What changes after the session began is not seen: its one status answers the other definitions.
    writeFileSync(join(root, 'a.txt'), 'changed by an output\n');
    for (const file of rest) {
      const path = join(root, file);
      expect({ file, ...(await shared(join(path, '..'), path)) }).toEqual({
        file,
        commit: head,
        dirty: ignored.has(file),
      });
    }
    // A reader of its own (another session, a single compile) sees the change.
    expect(await readSourceStampAsync(root, join(root, 'keep/agent.json'))).toEqual({ commit: head, dirty: true });
  });

  it('a `.git` that is no repository is passed over, as git passes it over', async () => {
    const head = repository();
    mkdirSync(join(root, 'ignored', '.git'));
    const { one, async, stepwise } = await stamps('ignored/agent.json');
    expect(stepwise).toEqual({ commit: head, dirty: true });
    expect(one).toEqual(stepwise);
    expect(async).toEqual(stepwise);
  });
});

const NOT_IN_GIT = { commit: null, dirty: null, reason: 'the definition is not inside a git repository' };

describe('compile stamps plan.json', () => {
  it('outside git: commit null with the reason; registration says whether the tree is agentic', async () => {
    workspace('local-notes');
    const compiled = await compileAgent({ file: 'examples/local-notes/agent.json', workspaceRoot: root });
    expect(compiled.ioError).toBeUndefined();
    const plan = planOf('local-notes');
    expect(plan.provenance).toEqual({
      commit: null,
      dirty: null,
      reason: 'the definition is not inside a git repository',
    });
    expect(plan.registration?.required).toBe(true);
    expect(plan.registration?.definitionDigest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a tool-only agent is not required to register', async () => {
    workspace('code-search');
    await compileAgent({ file: 'examples/code-search/agent.json', workspaceRoot: root });
    expect(planOf('code-search').registration?.required).toBe(false);
  });

  it('in a clean repository: HEAD and dirty false; the same state gives the same bytes; the digest ignores the stamp', async () => {
    workspace('local-notes');
    const head = initCommitted(root);
    await compileAgent({ file: 'examples/local-notes/agent.json', workspaceRoot: root });
    const first = readFileSync(join(root, 'dist/agents/local-notes/plan.json'), 'utf8');
    const plan = JSON.parse(first) as CompilePlan;
    expect(plan.provenance).toEqual({ commit: head, dirty: false });
    expect(plan.digest).toBe(computePlanDigest(plan));
    const { provenance: _p, registration: _r, digest: _d, ...rest } = plan;
    expect(plan.digest).toBe(digestOf(rest));
    expect(first).not.toContain(root);

    await compileAgent({ file: 'examples/local-notes/agent.json', workspaceRoot: root });
    expect(readFileSync(join(root, 'dist/agents/local-notes/plan.json'), 'utf8')).toBe(first);

    // An uncommitted change anywhere in the worktree: dirty, same commit, same plan digest.
    writeFileSync(join(root, 'README.md'), 'notes\n');
    await compileAgent({ file: 'examples/local-notes/agent.json', workspaceRoot: root });
    const dirty = planOf('local-notes');
    expect(dirty.provenance).toEqual({ commit: head, dirty: true });
    expect(dirty.digest).toBe(plan.digest);
  });

  it('the registration digest ignores what publish stamps (the commit, the card exports)', async () => {
    workspace('local-notes');
    await compileAgent({ file: 'examples/local-notes/agent.json', workspaceRoot: root });
    const before = planOf('local-notes').registration?.definitionDigest;
    const file = join(root, 'examples/local-notes/agent.json');
    const definition = JSON.parse(readFileSync(file, 'utf8'));
    definition.metadata.provenance.commitSha = 'f'.repeat(40);
    writeFileSync(file, `${JSON.stringify(definition, null, 2)}\n`);
    await compileAgent({ file: 'examples/local-notes/agent.json', workspaceRoot: root });
    expect(planOf('local-notes').registration?.definitionDigest).toBe(before);
  });
});
