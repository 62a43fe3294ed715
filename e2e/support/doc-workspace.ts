/**
 * The workspace a documentation page's reader is in, for the page tests of e2e/docs/: a fresh Nx
 * workspace (nx-workspace.ts: agentdef installed from the tarball the test run packed, as npm lays
 * it out; the repository's nx linked, as create-nx-workspace installs it) that is a git repository
 * on `main`, committed. With `examples`, it is the agentdef checkout as the README and the guides
 * use it: the repository's `examples/` (without lifecycle receipts), `tools.json`, `mcp.json` and
 * the plugin registered in nx.json for them with the repository's own options.
 *
 * `npx` is npm's own in the installing page's workspace (`npx: 'npm'`); in the others it is
 * {@link LOCAL_BIN_NPX}, which runs a bin the workspace installed exactly as `npx <bin>` finds it,
 * for a twentieth of npm's start-up (npx was half the CPU of the page tests), and hands anything
 * else to npm's npx.
 *
 * Nothing reaches the real machine: HOME is the test's folder, and with it the default keys folder
 * (`~/.config/agentdef/keys`), state (`~/.local/state/agentdef`), caches and wrangler's logs; the
 * keychain is off; npm runs offline. No key, model endpoint, agentdef or git setting of the outer
 * process is passed on.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { createWorkspace, nxBin, openWorkspace, packAgentdef, type TempWorkspace } from './nx-workspace';

const REPO = join(__dirname, '..', '..');

/** The repository's nx.json plugin entry for agentdef, as a workspace that installed the package names it. */
function examplesPlugin(): Record<string, unknown> {
  const nx = JSON.parse(readFileSync(join(REPO, 'nx.json'), 'utf8')) as { plugins: { plugin: string }[] };
  const own = nx.plugins.find((p) => p.plugin === './plugin/index.ts');
  if (!own) throw new Error('nx.json registers no ./plugin/index.ts');
  return { ...own, plugin: 'agentdef' };
}

/**
 * `npx` for a bin the project installed, as npm's npx runs it: `npx [--no|--yes|-y] <name> args…`
 * runs the first `node_modules/.bin/<name>` from the current folder up, with the
 * `node_modules/.bin` of every folder on that way put first on PATH (what `npm exec` does for a
 * local bin). Any
 * other use (a package spec, a name no folder installed, a flag it does not know) goes to npm's
 * npx, unchanged. `@@NPX@@` is npm's npx.
 */
export const LOCAL_BIN_NPX = `#!/bin/sh
# npx for a bin the project installed (e2e/support/doc-workspace.ts): anything else goes to npm's npx.
real='@@NPX@@'
flags=''
while [ $# -gt 0 ]; do
  case "$1" in
    --no|--yes|-y) flags="$flags $1"; shift ;;
    *) break ;;
  esac
done
name="$1"
case "$name" in
  ''|-*|*/*|*@*) exec "$real" $flags "$@" ;;
esac
dir="$PWD"; bins=''; found=''
while :; do
  bins="\${bins:+$bins:}$dir/node_modules/.bin"
  if [ -z "$found" ] && [ -x "$dir/node_modules/.bin/$name" ]; then found="$dir/node_modules/.bin/$name"; fi
  if [ -z "$dir" ] || [ "$dir" = / ]; then break; fi
  dir="\${dir%/*}"
done
if [ -z "$found" ]; then exec "$real" $flags "$@"; fi
shift
PATH="$bins:$PATH" exec "$found" "$@"
`;

/** npm's npx on `path` (absolute), for {@link LOCAL_BIN_NPX} to hand over to. */
export function npmNpx(path: string | undefined): string {
  for (const folder of (path ?? '').split(delimiter)) {
    if (folder !== '' && isAbsolute(folder) && existsSync(join(folder, 'npx'))) return join(folder, 'npx');
  }
  throw new Error('no npx on PATH');
}

/** Writes {@link LOCAL_BIN_NPX} as `<folder>/npx` (a new folder), handing over to npm's npx found on `path`; returns its path. */
export function writeLocalBinNpx(folder: string, path: string | undefined): string {
  mkdirSync(folder);
  const file = join(folder, 'npx');
  writeFileSync(
    file,
    LOCAL_BIN_NPX.replace('@@NPX@@', () => npmNpx(path).replace(/'/g, `'\\''`)),
  );
  chmodSync(file, 0o755);
  return file;
}

export function readerWorkspace(
  name: string,
  options: { examples?: boolean; npx?: 'npm' | 'local-bin' } = {},
): TempWorkspace {
  const created = createWorkspace(name, packAgentdef());
  symlinkSync(nxBin, join(created.dir, 'node_modules', '.bin', 'nx'));
  const home = created.home;
  let path = created.env.PATH;
  if (options.npx !== 'npm') {
    const shims = dirname(writeLocalBinNpx(join(dirname(created.dir), 'npx-local-bin'), path));
    path = `${shims}${delimiter}${path ?? ''}`;
  }
  const ws = openWorkspace(created.dir, home, {
    PATH: path,
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
      (variable.startsWith('AGENTDEF_') && variable !== 'AGENTDEF_KEYCHAIN') ||
      /^(ANTHROPIC|OPENAI)_API_KEY$|^OLLAMA_HOST$|^CLOUDFLARE_|^GIT_(DIR|WORK_TREE|INDEX_FILE|OBJECT_DIRECTORY|CONFIG_GLOBAL)$/.test(
        variable,
      );
    if (outer) delete ws.env[variable];
  }
  if (options.examples) {
    cpSync(join(REPO, 'examples'), join(ws.dir, 'examples'), {
      recursive: true,
      filter: (src) => !src.endsWith('lifecycle.receipts.jsonl'),
    });
    for (const file of ['tools.json', 'mcp.json'])
      if (existsSync(join(REPO, file))) cpSync(join(REPO, file), join(ws.dir, file));
    const nxJson = JSON.parse(readFileSync(join(ws.dir, 'nx.json'), 'utf8')) as Record<string, unknown>;
    nxJson.plugins = [examplesPlugin()];
    writeFileSync(join(ws.dir, 'nx.json'), `${JSON.stringify(nxJson, null, 2)}\n`);
  }
  writeFileSync(join(ws.dir, '.gitignore'), 'node_modules\ndist\n.nx\n');
  const git = (args: string[]) => execFileSync('git', args, { cwd: ws.dir, env: ws.env, encoding: 'utf8' });
  git(['init', '-q', '-b', 'main']);
  git(['add', '-A']);
  git([
    'commit',
    '-q',
    '-m',
    options.examples ? 'a workspace holding the examples' : 'an empty Nx workspace with agentdef installed',
  ]);
  return ws;
}
