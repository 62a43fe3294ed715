/**
 * The deploy gate end to end, in a real git repository in a temp folder: `agentdef deploy` (the
 * CLI, not --dry-run) of the agentic local-notes (local-mac target, its systemd unit installed
 * into a folder inside the temp workspace) passes the gate only when it is committed, compiled
 * clean and published at its digest; otherwise it refuses with the command that fixes it and
 * installs nothing. A tool-only agent is not gated.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runDeployCommand } from '../cli/commands/deploy';
import { captureRun } from '../cli/commands/test-support';
import { compileAgent } from '../compiler/compile';
import { gitIn, initCommitted } from '../compiler/__test-support__/git-repo';
import { generateKey } from '../hosts/node/key-store';
import { publishDefinition } from './publish';
import { sendJson, startServer } from '../runtime/__test-support__/stub-provider';

const REPO = join(__dirname, '..', '..');
const FILE = 'examples/local-notes/agent.json';
const UNIT = 'agentdef-local-notes.service';
let root: string;
let keyStore: { env: NodeJS.ProcessEnv; keychain: 'off' };

/**
 * A new workspace. `inRepo`: under the repository's ignored tmp/ folder, so the launcher's MCP
 * server resolves the repository's packages (node_modules) like the examples do; otherwise in the
 * system temp folder, outside any git repository.
 */
async function setup(where: 'in-repo-tmp' | 'outside-git'): Promise<void> {
  if (where === 'in-repo-tmp') mkdirSync(join(REPO, 'tmp'), { recursive: true });
  root = mkdtempSync(join(where === 'in-repo-tmp' ? join(REPO, 'tmp') : tmpdir(), 'agentdef-deploy-gate-'));
  writeFileSync(join(root, 'nx.json'), '{}\n');
  writeFileSync(join(root, '.gitignore'), 'dist/\n.keys/\nservices/\nstate/\n');
  for (const agent of ['local-notes', 'code-search', 'splice-resolver']) {
    mkdirSync(join(root, 'examples', agent), { recursive: true });
    writeFileSync(
      join(root, 'examples', agent, 'agent.json'),
      readFileSync(join(REPO, 'examples', agent, 'agent.json')),
    );
  }
  // local-notes's MCP server (stdio), which its launcher starts.
  cpSync(join(REPO, 'examples', 'mcp'), join(root, 'examples', 'mcp'), { recursive: true });
  for (const file of ['tools.json', 'mcp.json']) writeFileSync(join(root, file), readFileSync(join(REPO, file)));
  keyStore = { env: { AGENTDEF_KEYS_DIR: join(root, '.keys'), AGENTDEF_KEYCHAIN: 'off' }, keychain: 'off' };
  expect((await generateKey('keyref:mia-laptop', keyStore)).ok).toBe(true);
  // The service file's log folder and defaults come from these: inside the temp folder, never $HOME.
  vi.stubEnv('HOME', join(root, 'state', 'home'));
  vi.stubEnv('XDG_STATE_HOME', join(root, 'state'));
  vi.stubEnv('XDG_CONFIG_HOME', join(root, 'state', 'config'));
}

afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(root, { recursive: true, force: true });
});

async function compile(agent = 'local-notes', target: 'local-mac' | 'hb3' = 'local-mac') {
  const compiled = await compileAgent({ file: `examples/${agent}/agent.json`, workspaceRoot: root, target });
  expect(compiled.ioError).toBeUndefined();
  expect(compiled.outDir).toBe(`dist/agents/${agent}`);
}

const deploy = (agent = 'local-notes', ...extra: string[]) =>
  captureRun(runDeployCommand, [`dist/agents/${agent}`, '--service', 'systemd', '--into', 'services', ...extra], root);

/**
 * Starts the launcher exactly as the installed systemd unit says (its ExecStart, its Environment
 * lines, its WorkingDirectory) and returns the AgentCard it serves, then stops it.
 */
async function servedCardOf(unit: string): Promise<Record<string, any>> {
  // The model-provider edge: local-notes's launcher checks at start that Ollama lists its model
  // (GET /api/tags, Ollama's wire format); serving the card asks no model.
  const ollama = await startServer((req, res) =>
    req.method === 'GET' && req.path === '/api/tags'
      ? sendJson(res, 200, {
          models: [
            {
              name: 'llama3.1:8b',
              model: 'llama3.1:8b',
              modified_at: '2026-01-01T00:00:00Z',
              size: 4920753328,
              digest: '46e0c10c039e019119339687c3c1757cc81b9da49709a3b3924863ba87ca666e',
              details: { format: 'gguf', family: 'llama', parameter_size: '8.0B', quantization_level: 'Q4_K_M' },
            },
          ],
        })
      : sendJson(res, 404, { error: 'not found' }),
  );
  try {
    return await servedCardWith(unit, ollama.url);
  } finally {
    await ollama.close();
  }
}

async function servedCardWith(unit: string, ollamaUrl: string): Promise<Record<string, any>> {
  const text = readFileSync(join(root, 'services', unit), 'utf8');
  const exec = /^ExecStart=(.*)$/m.exec(text)![1]!;
  const argv = [...exec.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
  const env: Record<string, string> = {
    HOME: join(root, 'state', 'home'),
    XDG_STATE_HOME: join(root, 'state'),
    AGENTDEF_KEYS_DIR: join(root, '.keys'),
    AGENTDEF_KEYCHAIN: 'off',
    OLLAMA_HOST: ollamaUrl,
  };
  for (const m of text.matchAll(/^Environment="([^=]+)=(.*)"$/gm)) env[m[1]!] = m[2]!;
  const cwd = /^WorkingDirectory=(.*)$/m.exec(text)![1]!;
  const child = spawn(argv[0]!, [...argv.slice(1, -2), '--port', '0'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const url = await new Promise<string>((resolveUrl, reject) => {
      let out = '';
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      child.stdout.on('data', (d) => {
        out += d;
        const found = /"url":"(http:\/\/127\.0\.0\.1:\d+)[^"]*"/.exec(out) ?? /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (found) resolveUrl(found[1]!);
      });
      child.on('exit', (code) => reject(new Error(`the launcher exited ${code}: ${out}${err}`)));
    });
    const response = await fetch(`${url}/.well-known/agent-card.json`);
    expect(response.status).toBe(200);
    return (await response.json()) as Record<string, any>;
  } finally {
    child.kill('SIGTERM');
    await new Promise((done) => (child.exitCode !== null ? done(undefined) : child.once('exit', done)));
  }
}

const installed = () => (existsSync(join(root, 'services')) ? readdirSync(join(root, 'services')) : []);

async function publish(): Promise<void> {
  const published = await publishDefinition({ file: join(root, FILE), workspaceRoot: root, keyStore });
  expect(published.stderr).toBe('');
  expect(published.code).toBe(0);
  // The registry lives in the repository: its new files are committed like any other change.
  gitIn(root, 'add', '-A');
  gitIn(root, 'commit', '-q', '-m', 'publish local-notes');
}

describe('agentdef deploy: the KYM gate', () => {
  it('deploys a committed, published agentic agent compiled from a clean worktree', async () => {
    await setup('in-repo-tmp');
    initCommitted(root);
    await publish();
    await compile();
    const head = gitIn(root, 'rev-parse', 'HEAD').trim();
    const plan = JSON.parse(readFileSync(join(root, 'dist/agents/local-notes/plan.json'), 'utf8'));
    expect(plan.provenance).toEqual({ commit: head, dirty: false });
    expect(plan.registration.required).toBe(true);

    const result = await deploy();
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(installed()).toEqual([UNIT]);
    expect(readFileSync(join(root, 'services', UNIT), 'utf8')).not.toContain('AGENTDEF_DEPLOYMENT_UNREGISTERED');
    const card = await servedCardOf(UNIT);
    expect(card['name']).toBeTypeOf('string');
    expect(JSON.stringify(card)).not.toContain('kym-registration');
  });

  it('refuses an unpublished agentic agent with the publish command, and installs nothing', async () => {
    await setup('in-repo-tmp');
    initCommitted(root);
    await compile();
    const result = await deploy();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'error: local-notes@0.3.0 is agentic (it has a model) and is not published in registry/agents: agentic agents must be registered before they deploy; publish it with `agentdef publish examples/local-notes/agent.json --registry registry/agents`\n',
    );
    expect(result.stderr).toContain('error: deploy refused; nothing was deployed');
    expect(result.stdout).toBe('');
    expect(installed()).toEqual([]);
    expect(result.stderr).not.toContain(root);
  });

  it('refuses when the published snapshot is other content than the compiled definition', async () => {
    await setup('in-repo-tmp');
    initCommitted(root);
    await publish();
    const definition = JSON.parse(readFileSync(join(root, FILE), 'utf8'));
    definition.metadata.description = 'changed after publishing, same version';
    writeFileSync(join(root, FILE), `${JSON.stringify(definition, null, 2)}\n`);
    gitIn(root, 'commit', '-q', '-am', 'change without a bump');
    await compile();
    const result = await deploy();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('local-notes@0.3.0 is published in registry/agents with other content');
    expect(installed()).toEqual([]);
  });

  it('refuses an output compiled from a dirty worktree, and a worktree dirty at deploy time', async () => {
    await setup('in-repo-tmp');
    initCommitted(root);
    await publish();
    writeFileSync(join(root, 'notes.md'), 'not committed\n');
    await compile();
    const dirty = await deploy();
    expect(dirty.code).toBe(1);
    expect(dirty.stderr).toContain('dist/agents/local-notes was compiled from a worktree with uncommitted changes');
    expect(dirty.stderr).toContain('commit them (`git add -A && git commit`), then compile again');
    expect(dirty.stderr).toContain('error: the worktree has uncommitted changes now');
    expect(installed()).toEqual([]);

    // Committed, compiled clean; then the worktree changes again before the deploy.
    gitIn(root, 'add', '-A');
    gitIn(root, 'commit', '-q', '-m', 'notes');
    await compile();
    writeFileSync(join(root, 'notes.md'), 'changed again\n');
    const live = await deploy();
    expect(live.code).toBe(1);
    expect(live.stderr).not.toContain('was compiled from a worktree with uncommitted changes');
    expect(live.stderr).toContain('error: the worktree has uncommitted changes now');
    expect(installed()).toEqual([]);
  });

  it('refuses an agentic agent outside git: no commit to trace it to', async () => {
    await setup('outside-git');
    await compile();
    const result = await deploy();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'dist/agents/local-notes records no commit (the definition is not inside a git repository)',
    );
    expect(installed()).toEqual([]);
  });

  it('--dry-run prints what the deploy would refuse and goes on, changing nothing', async () => {
    await setup('in-repo-tmp');
    initCommitted(root);
    await compile();
    const result = await deploy('local-notes', '--dry-run');
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'deploy would refuse: local-notes@0.3.0 is agentic (it has a model) and is not published',
    );
    expect(installed()).toEqual([]);
  });

  it('--allow-unregistered deploys for development, warns on stderr and marks the deployment unregistered', async () => {
    await setup('in-repo-tmp');
    initCommitted(root);
    await compile();
    const result = await deploy('local-notes', '--allow-unregistered');
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'warning: --allow-unregistered: deploying local-notes@0.3.0 for development, marked unregistered in its card; in production this deploy is refused:\n',
    );
    expect(result.stderr).toContain('warning:   local-notes@0.3.0 is agentic (it has a model) and is not published');
    expect(installed()).toEqual([UNIT]);
    expect(readFileSync(join(root, 'services', UNIT), 'utf8')).toContain(
      'Environment="AGENTDEF_DEPLOYMENT_UNREGISTERED=1"\n',
    );
    const card = await servedCardOf(UNIT);
    expect(card['capabilities'].extensions).toContainEqual(
      expect.objectContaining({ uri: 'urn:agentdef:extension:kym-registration:v1', params: { unregistered: true } }),
    );
  });

  it('--allow-unregistered is refused for a target that cannot mark its card (HB3), deploying nothing', async () => {
    await setup('outside-git');
    await compile('splice-resolver', 'hb3');
    const result = await captureRun(runDeployCommand, ['dist/agents/splice-resolver', '--allow-unregistered'], root);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: --allow-unregistered is for cloudflare-dynamic-worker or local-mac outputs; dist/agents/splice-resolver is a hb3 output\n',
    );
    expect(result.stdout).toBe('');
    const plain = await captureRun(runDeployCommand, ['dist/agents/splice-resolver'], root);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain('splice-resolver@');
    expect(plain.stderr).toContain('is agentic (it has a model) and is not published');
  });

  it('does not gate a tool-only agent: unpublished, outside git, it deploys', async () => {
    await setup('outside-git');
    await compile('code-search');
    const result = await deploy('code-search');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(installed()).toEqual(['agentdef-code-search.service']);
  });
});
