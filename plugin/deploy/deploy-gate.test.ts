import { describe, expect, it } from 'vitest';
import { deployGate, type DeployGateFacts } from './deploy-gate';

const COMMIT = 'a'.repeat(40);

function facts(change: Partial<DeployGateFacts> = {}): DeployGateFacts {
  return {
    slug: 'local-notes',
    version: '1.0.0',
    definitionFile: 'examples/local-notes/agent.json',
    outDir: 'dist/agents/local-notes',
    registryFolder: 'registry/agents',
    registration: { required: true, definitionDigest: 'b'.repeat(64) },
    provenance: { commit: COMMIT, dirty: false },
    live: { commit: COMMIT, dirty: false },
    published: { state: 'same' },
    allowUnregistered: false,
    ...change,
  };
}

const refusals = (f: DeployGateFacts) => {
  const decision = deployGate(f);
  expect(decision.allowed).toBe(false);
  return decision.allowed ? [] : decision.refusals;
};

describe('the deploy gate', () => {
  it('lets a committed, published agentic output through, unmarked', () => {
    expect(deployGate(facts())).toEqual({ allowed: true, unregistered: false, warnings: [] });
  });

  it('does not gate a tool-only output: unpublished, uncommitted, no commit at all', () => {
    const toolOnly = facts({
      registration: { required: false, definitionDigest: 'c'.repeat(64) },
      provenance: { commit: null, dirty: null, reason: 'the definition is not inside a git repository' },
      live: { commit: null, dirty: null, reason: 'the definition is not inside a git repository' },
      published: { state: 'missing' },
    });
    expect(deployGate(toolOnly)).toEqual({ allowed: true, unregistered: false, warnings: [] });
  });

  it('refuses an unpublished agentic output with the publish command that fixes it', () => {
    expect(refusals(facts({ published: { state: 'missing' } }))).toEqual([
      'local-notes@1.0.0 is agentic (it has a model) and is not published in registry/agents: agentic agents must be registered before they deploy; publish it with `agentdef publish examples/local-notes/agent.json --registry registry/agents`',
    ]);
  });

  it('refuses when the published snapshot has other content, naming both digests', () => {
    const [refusal] = refusals(facts({ published: { state: 'other', publishedDigest: 'd'.repeat(64) } }));
    expect(refusal).toContain(`published ${'d'.repeat(64)}, compiled ${'b'.repeat(64)}`);
    expect(refusal).toContain('bump identity.versionSemver and identity.versionId');
  });

  it('refuses an unreadable registry with its problem', () => {
    const [refusal] = refusals(facts({ published: { state: 'unreadable', problem: 'index.json is not JSON' } }));
    expect(refusal).toContain('whether local-notes@1.0.0 is published cannot be told: index.json is not JSON');
  });

  it('refuses an output compiled from a dirty worktree with the commit-and-recompile fix', () => {
    const [refusal] = refusals(facts({ provenance: { commit: COMMIT, dirty: true } }));
    expect(refusal).toBe(
      `dist/agents/local-notes was compiled from a worktree with uncommitted changes (at ${COMMIT}): commit them (\`git add -A && git commit\`), then compile again (\`agentdef compile examples/local-notes/agent.json\`; under Nx \`nx run local-notes:compile --skip-nx-cache\`)`,
    );
  });

  it('refuses when the worktree is dirty now, even if the compile was clean', () => {
    const [refusal] = refusals(facts({ live: { commit: COMMIT, dirty: true } }));
    expect(refusal).toContain('the worktree has uncommitted changes now');
    expect(refusal).toContain('`git add -A && git commit`');
  });

  it('refuses an output with no commit, saying why', () => {
    const [refusal] = refusals(
      facts({ provenance: { commit: null, dirty: null, reason: 'the definition is not inside a git repository' } }),
    );
    expect(refusal).toContain(
      'dist/agents/local-notes records no commit (the definition is not inside a git repository)',
    );
  });

  it('refuses an output whose plan.json predates the registration facts', () => {
    const { registration: _r, ...old } = facts();
    expect(refusals(old)[0]).toContain('records no registration facts');
  });

  it('lists every refusal at once', () => {
    const all = refusals(
      facts({
        provenance: { commit: COMMIT, dirty: true },
        live: { commit: COMMIT, dirty: true },
        published: { state: 'missing' },
      }),
    );
    expect(all).toHaveLength(3);
  });

  it('--allow-unregistered lets a refused agentic output through, marked unregistered, with every refusal as a warning', () => {
    const decision = deployGate(
      facts({ published: { state: 'missing' }, live: { commit: COMMIT, dirty: true }, allowUnregistered: true }),
    );
    expect(decision.allowed).toBe(true);
    if (!decision.allowed) return;
    expect(decision.unregistered).toBe(true);
    expect(decision.warnings[0]).toBe(
      '--allow-unregistered: deploying local-notes@1.0.0 for development, marked unregistered in its card; in production this deploy is refused:',
    );
    expect(decision.warnings.slice(1).map((w) => w.trim().split(':')[0])).toEqual([
      'the worktree has uncommitted changes now (`git status` lists them)',
      'local-notes@1.0.0 is agentic (it has a model) and is not published in registry/agents',
    ]);
  });

  it('--allow-unregistered marks nothing when nothing is refused', () => {
    expect(deployGate(facts({ allowUnregistered: true }))).toEqual({
      allowed: true,
      unregistered: false,
      warnings: [],
    });
  });

  it('is pure: the same facts give the same decision', () => {
    const f = facts({ published: { state: 'missing' } });
    expect(deployGate(f)).toEqual(deployGate(structuredClone(f)));
  });
});
