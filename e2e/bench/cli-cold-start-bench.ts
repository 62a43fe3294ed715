/**
 * Cold start of the `agentdef` command from the built package, the way users run it (run:
 * `npm run bench:cli`): `agentdef validate` and `agentdef plan` on one example, each against
 * `node -e ''` measured in the same run, the three commands interleaved so load affects them
 * alike. Prints medians in ms and the ratios to bare Node; nothing is asserted.
 * Environment knobs: `BENCH_RUNS` (default 15), `BENCH_CLI_BUILD` (a folder `node
 * scripts/build.mjs --out <dir>` built, e.g. from another checkout; default: build one now into
 * tmp/e2e and remove it afterwards), `BENCH_CLI_FILE` (default examples/text-digest/agent.json).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { e2eRoot } from '../support/pack';
import { median, report, timeCommand } from './bench-support';

const repoRoot = join(__dirname, '..', '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const FILE = process.env.BENCH_CLI_FILE ?? 'examples/text-digest/agent.json';

/** Builds the package into a new folder under tmp/e2e (below the repository, so its dependencies resolve). */
function buildPackage(): string {
  const out = join(mkdtempSync(join(e2eRoot(), 'cli-bench-')), 'agentdef');
  const build = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'build.mjs'), '--out', out], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
  return out;
}

function main(): void {
  const given = process.env.BENCH_CLI_BUILD;
  const build = given !== undefined ? resolve(given) : buildPackage();
  const bin = join(build, 'bin', 'agentdef.cjs');
  if (!existsSync(join(build, 'plugin', 'cli', 'main.js')))
    throw new Error(`${build} is not a built package (no plugin/cli/main.js)`);
  // A build outside the repository finds its dependencies here; no preloaded hooks in the children.
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_PATH: join(repoRoot, 'node_modules') };
  delete env.NODE_OPTIONS;

  const commands: Array<[string, string[]]> = [
    ['node-empty', ['-e', '']],
    ['agentdef-validate', [bin, 'validate', FILE]],
    ['agentdef-plan', [bin, 'plan', FILE]],
  ];
  // One unmeasured round warms the file cache and fails early on a broken build.
  for (const [, args] of commands) timeCommand(process.execPath, args, repoRoot, env);
  const times = commands.map(() => [] as number[]);
  for (let i = 0; i < RUNS; i++)
    commands.forEach(([, args], k) => times[k]!.push(timeCommand(process.execPath, args, repoRoot, env)));
  const [empty, validate, plan] = times.map(median) as [number, number, number];

  report('build', given !== undefined ? build : 'built now');
  report('file', FILE);
  report('runs_per_measurement', RUNS);
  report('node-empty-ms', empty);
  report('agentdef-validate-ms', validate);
  report('validate-vs-node-ratio', validate / empty);
  report('agentdef-plan-ms', plan);
  report('plan-vs-node-ratio', plan / empty);
  if (given === undefined) rmSync(join(build, '..'), { recursive: true, force: true });
}

main();
