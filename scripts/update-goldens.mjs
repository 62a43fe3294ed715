// Regenerates the golden files of every adapter suite: each `e2e/golden/<target>/suite.ts` that
// exports `suite` (see e2e/golden/golden-suite.ts) is rendered and written to its `__golden__`
// folder. To add a target's goldens, add its suite.ts; nothing here changes.
//
//   node scripts/update-goldens.mjs            regenerate every suite
//   node scripts/update-goldens.mjs hb3        regenerate one target's suite
//   node scripts/update-goldens.mjs --check    exit 1 and list the files that drifted, write nothing
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const goldenRoot = join(root, 'e2e', 'golden');
const args = process.argv.slice(2);
const check = args.includes('--check');
const only = args.filter((a) => !a.startsWith('--'));

const targets = readdirSync(goldenRoot, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(goldenRoot, entry.name, 'suite.ts')))
  .map((entry) => entry.name)
  .filter((target) => only.length === 0 || only.includes(target))
  .sort();
if (targets.length === 0) {
  console.error(
    `update-goldens: no suite found${only.length ? ` for ${only.join(', ')}` : ''} under e2e/golden/*/suite.ts`,
  );
  process.exit(2);
}

// The suites are TypeScript: run them through the repository's TypeScript loader.
const runner = `
const { renderSuite, readGoldens, goldenDrift, writeGoldens } = require(${JSON.stringify(join(goldenRoot, 'golden-suite.ts'))});
(async () => {
  const { suite } = require(process.env.AGENTDEF_GOLDEN_SUITE);
  const rendered = await renderSuite(suite);
  if (process.env.AGENTDEF_GOLDEN_CHECK === '1') {
    const drift = goldenDrift(rendered, readGoldens(suite.target));
    if (drift.length > 0) { console.log(suite.target + ': ' + drift.length + ' file(s) drifted:\\n  ' + drift.join('\\n  ')); process.exit(1); }
    console.log(suite.target + ': ' + rendered.size + ' golden file(s) up to date');
  } else {
    writeGoldens(suite.target, rendered);
    console.log(suite.target + ': wrote ' + rendered.size + ' golden file(s) to e2e/golden/' + suite.target + '/__golden__');
  }
})().catch((error) => { console.error(error && error.stack || String(error)); process.exit(2); });
`;

let failed = 0;
for (const target of targets) {
  const run = spawnSync(process.execPath, ['-r', '@swc-node/register', '-e', runner], {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      AGENTDEF_GOLDEN_SUITE: join(goldenRoot, target, 'suite.ts'),
      AGENTDEF_GOLDEN_CHECK: check ? '1' : '0',
    },
  });
  if (run.status !== 0) failed = Math.max(failed, run.status ?? 2);
}
process.exit(failed);
