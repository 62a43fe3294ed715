import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXCHANGE_FILE, parseExchange } from '../../plugin/hosts/model-replay/exchange';
import { docPageTest } from '../docs/doc-pages';
import { followPage, killLeftovers } from './doc-page';
import { buildAndPack, isolatedEnv, layOutWorkspace, nxBin } from './pack';
import {
  INSTALLED_RECORDING,
  STAND_IN_API_KEY,
  TUTORIAL_PAGE,
  TUTORIAL_RECORDING,
  startTutorialModel,
} from './tutorial-model';

const RECORD_INTO = 'recordings/your-first-agent';

/** A fresh workspace with the tarball unpacked (pack.ts's layOutWorkspace) and the repository's nx linked in. */
function workspace(tarball: string): { dir: string; home: string } {
  const laid = layOutWorkspace('record-tutorial', tarball);
  symlinkSync(nxBin, join(laid.dir, 'node_modules', '.bin', 'nx'));
  return laid;
}

/** The exchange files of a folder, by name, with their text. */
function exchanges(folder: string): Map<string, string> {
  const out = new Map<string, string>();
  let names: string[] = [];
  try {
    names = readdirSync(folder);
  } catch {
    return out;
  }
  for (const name of names.filter((n) => EXCHANGE_FILE.test(n)).sort())
    out.set(name, readFileSync(join(folder, name), 'utf8'));
  return out;
}

export async function recordTutorial(options: { check: boolean; log(line: string): void }): Promise<number> {
  const tarball = buildAndPack();
  const ws = workspace(tarball);
  const model = await startTutorialModel();
  try {
    const env = isolatedEnv(ws.home, {
      AGENTDEF_KEYCHAIN: 'off',
      AGENTDEF_KEYS_DIR: join(ws.home, 'keys'),
      AGENTDEF_STATE_DIR: join(ws.home, 'state'),
      WRANGLER_LOG_PATH: join(ws.home, 'wrangler-logs'),
      XDG_STATE_HOME: join(ws.home, '.local', 'state'),
      npm_config_update_notifier: 'false',
      AGENTDEF_BASE_URL_ANTHROPIC: model.url,
      AGENTDEF_SECRET_ANTHROPIC_API_KEY: STAND_IN_API_KEY,
    });
    const problems: string[] = [];
    try {
      await followPage({
        page: TUTORIAL_PAGE,
        cwd: ws.dir,
        env,
        // What the page's test leaves out (the install step needs the network; this repository's node_modules has both packages).
        skip: docPageTest('e2e/docs/your-first-agent.test.ts').skip,
        rewrite: (command) => command.split(`--replay ${INSTALLED_RECORDING}`).join(`--record ${RECORD_INTO}`),
        after: (result) => {
          if (result.step.kind !== 'command' || result.skipped !== undefined) return;
          const failed = result.step.longRunning
            ? /^(warning|error): model /m.test(result.output)
            : /agentdef ask /.test(result.command) && !/^state: completed$/m.test(result.output);
          if (failed) problems.push(`${result.where}\n${result.output}`);
        },
      });
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
    }
    if (problems.length > 0) {
      for (const problem of problems) options.log(`record-tutorial: ${problem}`);
      return 1;
    }
    const made = exchanges(join(ws.dir, RECORD_INTO));
    const shipped = exchanges(TUTORIAL_RECORDING);
    const added = [...made.keys()].filter((name) => !shipped.has(name));
    const removed = [...shipped.keys()].filter((name) => !made.has(name));
    const changed = [...made.keys()].filter((name) => shipped.has(name) && shipped.get(name) !== made.get(name));
    if (options.check) {
      for (const name of added)
        options.log(`record-tutorial: the page sends a request the shipped recording does not hold: ${name}`);
      for (const name of removed)
        options.log(`record-tutorial: the shipped recording holds a request the page no longer sends: ${name}`);
      for (const name of changed) options.log(`record-tutorial: the answer to ${name} differs`);
      if (added.length + removed.length + changed.length > 0) {
        options.log('record-tutorial: the shipped recording is stale: run node scripts/record-tutorial.mjs');
        return 1;
      }
      options.log(`record-tutorial: ${made.size} exchanges up to date`);
      return 0;
    }
    mkdirSync(TUTORIAL_RECORDING, { recursive: true });
    for (const name of removed) {
      // Only an exchange agentdef wrote is removed.
      if (parseExchange(shipped.get(name)!, name).ok) rmSync(join(TUTORIAL_RECORDING, name));
    }
    for (const [name, text] of made) writeFileSync(join(TUTORIAL_RECORDING, name), text);
    options.log(
      `record-tutorial: ${made.size} exchanges in recordings/your-first-agent (${added.length} new, ${changed.length} changed, ${removed.length} removed)`,
    );
    return 0;
  } finally {
    killLeftovers();
    await model.close();
    rmSync(join(ws.dir, '..'), { recursive: true, force: true });
    rmSync(join(tarball, '..'), { recursive: true, force: true });
  }
}

if (require.main === module) {
  recordTutorial({ check: process.argv.includes('--check'), log: (line) => process.stdout.write(`${line}\n`) }).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`record-tutorial: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
