// `npm run pack`: builds the package (scripts/build.mjs, into dist/agentdef), packs it with
// `npm pack` into dist/pack/, and prints the tarball's absolute path and the exact line that
// installs it in an Nx workspace. agentdef is not on a registry: this tarball is what users install.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// `--into <dir>` builds into <dir>/agentdef and packs into <dir> (tests use their own folder).
const intoFlag = process.argv.indexOf('--into');
const into = intoFlag === -1 ? undefined : resolve(process.argv[intoFlag + 1] ?? '');
const built = into ? join(into, 'agentdef') : join(root, 'dist', 'agentdef');
const packDir = into ?? join(root, 'dist', 'pack');

// `--no-check` passes through to the build (tsc --noCheck: the test run's global setup).
const buildFlags = process.argv.includes('--no-check') ? ['--no-check'] : [];
const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--out', built, ...buildFlags], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) {
  console.error('pack: the build failed (see above); nothing was packed');
  process.exit(build.status ?? 1);
}

mkdirSync(packDir, { recursive: true });
// `npm` is a script on Windows (npm.cmd): run it through the shell there.
const pack = spawnSync('npm', ['pack', built, '--pack-destination', packDir, '--json', '--silent'], {
  cwd: root,
  encoding: 'utf8',
  shell: process.platform === 'win32',
});
if (pack.status !== 0) {
  console.error(`pack: npm pack failed:\n${pack.stdout ?? ''}${pack.stderr ?? ''}`);
  process.exit(pack.status ?? 1);
}
const [info] = JSON.parse(pack.stdout);
const tarball = join(packDir, info.filename);
const { engines } = JSON.parse(readFileSync(join(built, 'package.json'), 'utf8'));
console.log(`packed ${tarball} (${info.entryCount} files, ${info.size} bytes)`);
console.log(`install it in an Nx workspace (Node ${engines?.node ?? 'any'}) with:`);
console.log(`  npm install -D ${shellWord(tarball)}`);

/** `text` as one shell word: as it is when it holds only safe characters, else single-quoted. */
function shellWord(text) {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
