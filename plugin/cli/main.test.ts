/**
 * The CLI loads a command's modules only when its verb runs: through the real binary (from the
 * source checkout), a preloaded script lists every module the process loaded. `validate` must stay
 * within the CLI and the definition layer (no compiler, no ts-morph, no esbuild), `plan` loads no
 * ts-morph, esbuild or host code (from a source checkout, @swc-node/register itself loads TypeScript); `--help` and
 * unknown verbs load no command at all.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFINITION_LEAVES } from '../../e2e/architecture/layers';
import { HUNG_CHILD_MS } from '../../e2e/support/hung-child';

const repoRoot = join(__dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'agentdef-cli-modules-'));
const preload = join(dir, 'list-modules.cjs');
writeFileSync(
  preload,
  "process.on('exit', () => require('node:fs').writeFileSync(process.env.AGENTDEF_MODULE_LIST, JSON.stringify(Object.keys(require.cache))));\n",
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `agentdef <args>`; returns the exit code and the loaded modules (repository-relative, posix). */
function loadedModules(args: string[]): { status: number | null; own: string[]; packages: string[] } {
  const list = join(dir, `modules-${args.join('_').replace(/\W/g, '-')}.json`);
  const run = spawnSync(process.execPath, ['-r', preload, join(repoRoot, 'bin', 'agentdef.cjs'), ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, AGENTDEF_MODULE_LIST: list },
    timeout: HUNG_CHILD_MS,
  });
  const files = (JSON.parse(readFileSync(list, 'utf8')) as string[]).map((f) =>
    relative(repoRoot, f).split(sep).join('/'),
  );
  const packages = new Set(files.flatMap((f) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(f)?.[1] ?? []));
  return {
    status: run.status,
    own: files.filter((f) => !f.startsWith('../') && !f.includes('node_modules/')),
    packages: [...packages].sort(),
  };
}

describe('agentdef loads commands lazily', () => {
  it('validate loads only the CLI and the definition layer', () => {
    const { status, own, packages } = loadedModules(['validate', 'examples/text-digest/agent.json']);
    expect(status).toBe(0);
    // Besides the dependency-free leaves the definition layer shares with the runtime.
    expect(
      own.filter(
        (f) =>
          !/^(bin\/|plugin\/cli\/|plugin\/definition\/|plugin\/schema\/)/.test(f) && !DEFINITION_LEAVES.includes(f),
      ),
    ).toEqual([]);
    expect(own).not.toContain('plugin/cli/commands/compile.ts');
    for (const heavy of ['ts-morph', '@ts-morph/common', 'esbuild', 'yaml']) expect(packages).not.toContain(heavy);
  });

  it('plan loads neither ts-morph nor esbuild, nor any host', () => {
    const { status, own, packages } = loadedModules(['plan', 'examples/write-router/agent.json']);
    expect(status).toBe(0);
    expect(own.filter((f) => /^plugin\/hosts\//.test(f))).toEqual([]);
    for (const heavy of ['ts-morph', '@ts-morph/common', 'esbuild']) expect(packages).not.toContain(heavy);
  });

  it("--help, a command's help and an unknown verb load no command module", () => {
    // Besides the CLI's own shell and its command tables (plugin/cli/specs/): terminal-text.ts escapes
    // what the CLI prints, nearest-name.ts finds the command a mistyped one means, and the tables name
    // the values of --target and --to (the target table and its descriptors, whose parts all load lazily;
    // rules/lifecycle-gates.ts: constants), and
    // the form of a --key keyref:<name> (hosts/node/key-ref.ts: a pattern, no key store).
    const allowed = new Set([
      'plugin/cli/main.ts',
      'plugin/cli/io.ts',
      'plugin/cli/usage.ts',
      'plugin/cli/help-text.ts',
      'plugin/definition/terminal-text.ts',
      'plugin/definition/nearest-name.ts',
      'plugin/targets/targets.ts',
      'plugin/targets/lazy-module.ts',
      'plugin/targets/cloudflare-dynamic-worker/target.ts',
      'plugin/targets/cloudflare-dynamic-worker/contract.ts',
      'plugin/targets/hb3/target.ts',
      'plugin/targets/kubernetes/target.ts',
      'plugin/targets/local-mac/target.ts',
      'plugin/host-contract/output-files.ts',
      'plugin/definition/rules/lifecycle-gates.ts',
      'plugin/hosts/node/key-ref.ts',
    ]);
    for (const args of [
      ['--help'],
      ['frobnicate'],
      ['constructor'],
      ['compile', '--help'],
      ['help', 'keys', 'generate'],
      ['application', 'execute', '-h'],
    ]) {
      const { status, own } = loadedModules(args);
      expect(
        own.filter((f) => f.startsWith('plugin/') && !allowed.has(f) && !f.startsWith('plugin/cli/specs/')),
        args.join(' '),
      ).toEqual([]);
      expect(status, args.join(' ')).toBe(
        args[0] === '--help' || args.includes('--help') || args.includes('-h') || args[0] === 'help' ? 0 : 2,
      );
    }
  });
});
