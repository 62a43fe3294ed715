// Records the model exchanges `agentdef eval` replays for the examples that have eval cases: the
// agent's own and the grader's (model-graded assertions), with `agentdef eval <example> --record
// examples/<example>/recordings` (the folder `agentdef eval` replays by default; this script owns it
// and clears its exchanges first) against the test suite's scripted stand-ins on 127.0.0.1, which
// speak each provider's wire format. The stand-ins are not the real models (examples/recordings/README.md):
// the agent's answers are the same as the main job's (scripts/run-dev-ask-examples.mjs) where both
// ask the same, and the grader is plugin/eval/__test-support__/grading-stand-in.ts, which answers
// the grading prompt of plugin/runtime/hybrid/grade.ts with a verdict decided by the example's
// scripted judge (below for local-notes, e2e/support/eval-stand-ins.ts for the others).
//
//   node scripts/record-eval-examples.mjs            # every example of the table
//   node scripts/record-eval-examples.mjs local-notes
//
// No network, no API key, nothing in $HOME: keys, state and caches live in a scratch folder under
// tmp/ that is removed afterwards. Each example's cases must score as its entry says (pass, unless
// it names another exit code) on the recorded session; recording again gives the same bytes.
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'bin', 'agentdef.cjs');

/** The test suite's stand-ins and the scripted grader (TypeScript, compiled on the fly like bin/agentdef.cjs does). */
function standIns() {
  const require = createRequire(import.meta.url);
  process.env.SWC_NODE_PROJECT ||= join(root, 'tsconfig.json');
  require('@swc-node/register');
  return {
    ...require('../e2e/local/support/stub-ollama.ts'),
    ...require('../plugin/eval/__test-support__/grading-stand-in.ts'),
    ...require('../e2e/support/eval-stand-ins.ts'),
  };
}

/** Each example with eval cases: its definition, its recordings, and the stand-in its host and grader reach. */
const EXAMPLES = [
  {
    name: 'local-notes',
    definition: 'examples/local-notes',
    recordings: 'examples/local-notes/recordings',
    signingKey: 'keyref:mia-laptop',
    start: async ({ startStubOllama, scriptedVerdict }) => {
      // The scripted judge: a citation is "(from <file>.md)"; the venue rubric wants a place and dates.
      const judge = (criterion, answer) => {
        if (/cites a note/i.test(criterion)) {
          const cited = /\(from [^)\s]+\.md\)/.test(answer);
          return { pass: cited, reason: cited ? 'the answer names the note it quotes' : 'no note file is named' };
        }
        if (/venue/i.test(criterion)) {
          const ok = /\d/.test(answer) && /[A-Z][a-z]+/.test(answer);
          return { pass: ok, reason: ok ? 'the answer names a place and dates' : 'no place or dates in the answer' };
        }
        return { pass: true, reason: 'nothing in the answer goes against it' };
      };
      const ollama = await startStubOllama({
        models: ['llama3.1:8b'],
        respond: (chat) => {
          const system = chat.messages.find((m) => m.role === 'system')?.content;
          const user = chat.messages.find((m) => m.role === 'user')?.content ?? '';
          const verdict = scriptedVerdict(system, user, judge);
          if (verdict !== undefined) return { text: verdict };
          const tool = chat.messages.find((m) => m.role === 'tool');
          if (!tool) return { toolCalls: [{ name: 'search_notes', arguments: { query: 'Q3 offsite venue' } }] };
          const match = JSON.parse(tool.content).matches[0];
          return { text: `${match.text.replace(/^- /, '')} (from ${match.file})` };
        },
      });
      return { env: { OLLAMA_HOST: ollama.url }, close: () => ollama.close() };
    },
  },
  // The other examples with models: their stand-ins and scripted judges are in e2e/support/eval-stand-ins.ts.
  ...[
    ['support-triage', 'keyref:acme-agents'],
    ['fallback-writer', 'keyref:acme-agents'],
    ['web-summarizer', 'keyref:acme-agents'],
    ['splice-resolver', 'keyref:acme-agents'],
    // These two score below their threshold today (exit 1): a composed answer is its last node's,
    // which names neither the node that handled it nor the file (e2e/examples-evals.test.ts).
    ['write-router', 'keyref:acme-agents', 1],
    ['edit-assistant', 'keyref:acme-agents', 1],
  ].map(([name, signingKey, exits = 0]) => ({
    name,
    exits,
    definition: `examples/${name}`,
    recordings: `examples/${name}/recordings`,
    signingKey,
    start: async ({ startEvalStandIns }) => startEvalStandIns(name),
  })),
];

/** This process's environment without agentdef's, Nx's or npm's own variables; HOME, keys and caches in `scratch`. */
function isolatedEnv(scratch, extra) {
  const env = {};
  for (const [name, value] of Object.entries(process.env))
    if (!/^(AGENTDEF_|NX_|npm_|WRANGLER_|CLOUDFLARE_|OLLAMA_)/.test(name)) env[name] = value;
  return {
    ...env,
    HOME: join(scratch, 'home'),
    XDG_CONFIG_HOME: join(scratch, 'home', '.config'),
    XDG_CACHE_HOME: join(scratch, 'home', '.cache'),
    XDG_STATE_HOME: join(scratch, 'home', '.local', 'state'),
    AGENTDEF_STATE_DIR: join(scratch, 'state'),
    AGENTDEF_KEYS_DIR: join(scratch, 'keys'),
    AGENTDEF_KEYCHAIN: 'off',
    ...extra,
  };
}

/** Removes the exchange files of a recording folder before it is recorded again (only files named `<64 hex>.json`). */
function clearRecording(folder) {
  const dir = join(root, folder);
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) if (/^[0-9a-f]{64}\.json$/.test(name)) rmSync(join(dir, name));
}

function agentdef(args, env) {
  process.stdout.write(`$ agentdef ${args.join(' ')}\n`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('close', (code, signal) => resolve(signal ?? code));
  });
}

async function main() {
  const only = process.argv.slice(2);
  mkdirSync(join(root, 'tmp'), { recursive: true });
  const scratch = mkdtempSync(join(root, 'tmp', 'record-eval-'));
  const helpers = standIns();
  let failures = 0;
  try {
    for (const example of EXAMPLES) {
      if (only.length > 0 && !only.includes(example.name)) continue;
      const standIn = await example.start(helpers);
      try {
        // The hosts sign their run receipts with a fresh key (a Worker refuses to start without one).
        const receiptKey = JSON.stringify(generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }));
        const env = isolatedEnv(scratch, { AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: receiptKey, ...standIn.env });
        if ((await agentdef(['keys', 'generate', example.signingKey], env)) !== 0) failures++;
        clearRecording(example.recordings);
        const status = await agentdef(
          [
            'eval',
            example.definition,
            '--record',
            example.recordings,
            '--out',
            join('tmp', 'record-eval', example.name),
            // One case at a time: the stand-ins number their responses in the order they are asked
            // (msg_1, call_1_0, ...), so recording again gives the same bytes.
            '--concurrency',
            '1',
          ],
          env,
        );
        if (status !== (example.exits ?? 0)) {
          process.stderr.write(
            `record-eval-examples: ${example.name}: agentdef eval exited ${status}, not ${example.exits ?? 0}\n`,
          );
          failures++;
        }
      } finally {
        await standIn.close();
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    rmSync(join(root, 'tmp', 'record-eval'), { recursive: true, force: true });
  }
  return failures === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`record-eval-examples: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
