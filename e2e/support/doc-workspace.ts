/**
 * The workspace a documentation page's reader is in, for the page tests of e2e/docs/: a fresh Nx
 * workspace (nx-workspace.ts: agentdef installed from the tarball the test run packed, as npm lays
 * it out; the repository's nx linked, as create-nx-workspace installs it) that is a git repository
 * on `main`, committed. With `examples`, it is the agentdef checkout as the README and the guides
 * use it: the repository's `examples/` (without lifecycle receipts), `tools.json`, `mcp.json` and
 * the plugin registered in nx.json for them with the repository's own options.
 *
 * Nothing reaches the real machine: HOME is the test's folder, and with it the default keys folder
 * (`~/.config/agentdef/keys`), state (`~/.local/state/agentdef`), caches and wrangler's logs; the
 * keychain is off; npm runs offline. No key, model endpoint, agentdef or git setting of the outer
 * process is passed on.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createWorkspace, nxBin, openWorkspace, packAgentdef, type TempWorkspace } from './nx-workspace';

const REPO = join(__dirname, '..', '..');

/** The repository's nx.json plugin entry for agentdef, as a workspace that installed the package names it. */
function examplesPlugin(): Record<string, unknown> {
  const nx = JSON.parse(readFileSync(join(REPO, 'nx.json'), 'utf8')) as { plugins: { plugin: string }[] };
  const own = nx.plugins.find((p) => p.plugin === './plugin/index.ts');
  if (!own) throw new Error('nx.json registers no ./plugin/index.ts');
  return { ...own, plugin: 'agentdef' };
}

export function readerWorkspace(name: string, options: { examples?: boolean } = {}): TempWorkspace {
  const created = createWorkspace(name, packAgentdef());
  symlinkSync(nxBin, join(created.dir, 'node_modules', '.bin', 'nx'));
  const home = created.home;
  const ws = openWorkspace(created.dir, home, {
    AGENTDEF_KEYCHAIN: 'off',
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    WRANGLER_LOG_PATH: join(home, 'wrangler-logs'),
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
    GIT_AUTHOR_NAME: 'Doc Reader',
    GIT_AUTHOR_EMAIL: 'reader@example.invalid',
    GIT_COMMITTER_NAME: 'Doc Reader',
    GIT_COMMITTER_EMAIL: 'reader@example.invalid',
    GIT_CONFIG_NOSYSTEM: '1',
  });
  for (const variable of Object.keys(ws.env)) {
    const outer =
      (variable.startsWith('AGENTDEF_') && variable !== 'AGENTDEF_KEYCHAIN') || /^(ANTHROPIC|OPENAI)_API_KEY$|^OLLAMA_HOST$|^CLOUDFLARE_|^GIT_(DIR|WORK_TREE|INDEX_FILE|OBJECT_DIRECTORY|CONFIG_GLOBAL)$/.test(variable);
    if (outer) delete ws.env[variable];
  }
  if (options.examples) {
    cpSync(join(REPO, 'examples'), join(ws.dir, 'examples'), { recursive: true, filter: (src) => !src.endsWith('lifecycle.receipts.jsonl') });
    for (const file of ['tools.json', 'mcp.json']) if (existsSync(join(REPO, file))) cpSync(join(REPO, file), join(ws.dir, file));
    const nxJson = JSON.parse(readFileSync(join(ws.dir, 'nx.json'), 'utf8')) as Record<string, unknown>;
    nxJson.plugins = [examplesPlugin()];
    writeFileSync(join(ws.dir, 'nx.json'), `${JSON.stringify(nxJson, null, 2)}\n`);
  }
  writeFileSync(join(ws.dir, '.gitignore'), 'node_modules\ndist\n.nx\n');
  const git = (args: string[]) => execFileSync('git', args, { cwd: ws.dir, env: ws.env, encoding: 'utf8' });
  git(['init', '-q', '-b', 'main']);
  git(['add', '-A']);
  git(['commit', '-q', '-m', options.examples ? 'a workspace holding the examples' : 'an empty Nx workspace with agentdef installed']);
  return ws;
}
