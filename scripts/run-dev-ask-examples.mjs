// For the README's main job: what a newcomer does with a compiled agent, once per target. For a
// Worker, an HB3 job, a local launcher and a hybrid leaf on a Worker (support-triage), in turn:
// `agentdef dev <output> --port <free port>` (a real child process), wait for its ready line,
// `agentdef ask <url> <text> --key <public JWK>` (a real child process) and print its answer, task
// id, state and receipt line (and, for the hybrid leaf, its route and the evaluator's verdicts),
// print the deploy dry run (`agentdef deploy <output> --dry-run`), stop dev with SIGINT and check it
// exited 0. A host that writes its receipts to a file (HB3, local launcher) has them checked with
// `agentdef verify`.
//
// No network, no API key and nothing in $HOME: the agentic examples' models are replayed from the
// recordings in examples/recordings/<agent> (`agentdef dev --replay`; dev and ask both say so), the
// receipt key is a fresh one in AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY (keychain off), and HOME,
// state and caches live in a scratch folder under tmp/ that is removed afterwards.
//
//   node scripts/run-dev-ask-examples.mjs --worker dist/agents/text-digest --hb3 dist/hb3/fallback-writer \
//     --local dist/agents/local-notes --hybrid dist/agents/support-triage
//
// `--record` makes those recordings again: the same session with `agentdef dev --record` against
// the test suite's scripted stand-ins on 127.0.0.1 (Anthropic's Messages API for the HB3 job, Ollama
// for the launcher, the scripted support desk on OpenAI's and Anthropic's APIs for the hybrid leaf,
// which is also asked the other questions its recording keeps), reached through the hosts' own
// overrides (AGENTDEF_BASE_URL_ANTHROPIC, AGENTDEF_BASE_URL_OPENAI, OLLAMA_HOST), with stand-in API
// keys. The stand-ins are not the real models: see examples/recordings/README.md.
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'bin', 'agentdef.cjs');
const READY_MS = 60_000;
const STOP_MS = 15_000;
const STUB_API_KEY = 'sk-ant-stub-0123456789abcdefghij';
const RECORDINGS = 'examples/recordings';
/** Everything the agentdef processes printed, searched for the secrets they were given at the end. */
const printed = [];
/** The stand-ins' API keys (recording), searched for too. */
const standInSecrets = [];
const DEFAULT_OUTPUTS = {
  worker: 'dist/agents/text-digest',
  hb3: 'dist/hb3/fallback-writer',
  local: 'dist/agents/local-notes',
  hybrid: 'dist/agents/support-triage',
};

/** The test suite's scripted stand-ins (TypeScript, compiled on the fly like bin/agentdef.cjs does): loaded only to record. */
function standIns() {
  const require = createRequire(import.meta.url);
  process.env.SWC_NODE_PROJECT ||= join(root, 'tsconfig.json');
  require('@swc-node/register');
  return {
    ...require('../plugin/runtime/__test-support__/stub-provider.ts'),
    ...require('../e2e/local/support/stub-ollama.ts'),
    ...require('../plugin/runtime/__test-support__/hybrid-script.ts'),
  };
}

/** What the stub Anthropic model proposes for the HB3 example's edit: a diff that applies. */
const FALLBACK_DIFF = [
  '--- a/config.ts',
  '+++ b/config.ts',
  '@@ -1,1 +1,2 @@',
  '+if (raw === undefined) throw new Error("no config");',
  ' parseConfig(raw);',
  '',
].join('\n');

/**
 * The questions support-triage's recording answers, by what the scripted support desk does with
 * them (plugin/runtime/__test-support__/hybrid-script.ts). The main job asks the first (replayed);
 * recording asks them all, so `agentdef eval` and the tests can replay any of them.
 */
const SUPPORT_QUESTIONS = [
  // Billing: the first reply fails the evaluator (no next step), the retry with its critique passes.
  { question: 'I was charged twice for my March invoice.', state: 'completed' },
  // Technical: the first reply passes.
  { question: 'The CLI says EACCES when I run sync. What should I do?', state: 'completed' },
  // The classifier names no label: the default (technical) answers, then passes on the retry.
  { question: 'gibberish about something', state: 'completed' },
  // Billing fails twice, the escalation to technical fails too: evaluation_failed.
  { question: 'stubborn: my invoice total looks wrong', state: 'failed' },
];

/** One example per target: the output folder, what to ask, and the model stub its host reaches. */
const EXAMPLES = [
  {
    key: 'worker',
    title: 'A Cloudflare Worker: text-digest (workerd via miniflare, loader.js with a Worker Loader binding)',
    question: 'Workers run agents in isolates. Each agent gets its own isolate, and isolates share nothing.',
  },
  {
    key: 'hb3',
    title: 'An HB3 job: fallback-writer compiled with --target hb3 (its container entrypoint as a local process)',
    question: JSON.stringify({
      path: 'config.ts',
      source: 'parseConfig(raw);\n',
      instruction: 'add a null check before the call to parseConfig',
    }),
    receiptsOf: 'fallback-writer',
    recording: `${RECORDINGS}/fallback-writer`,
    recordAgainst: async () => {
      const stub = await standIns().startScriptedProvider({
        wire: 'anthropic-messages',
        apiKey: STUB_API_KEY,
        script: [{ text: FALLBACK_DIFF }],
      });
      return {
        env: { AGENTDEF_BASE_URL_ANTHROPIC: stub.url, AGENTDEF_SECRET_ANTHROPIC_API_KEY: STUB_API_KEY },
        close: () => stub.close(),
      };
    },
  },
  {
    key: 'local',
    title: 'A local launcher: local-notes (launch.mjs; Ollama and the notes MCP server on this machine)',
    question: 'what did we decide about the Q3 offsite venue?',
    receiptsOf: 'local-notes',
    // Into a folder of the workspace, so the dry run names no home folder.
    deployArgs: ['--into', 'dist/services'],
    recording: `${RECORDINGS}/local-notes`,
    recordAgainst: async () => {
      const ollama = await standIns().startStubOllama({
        models: ['llama3.1:8b'],
        respond: (chat) => {
          const tool = chat.messages.find((m) => m.role === 'tool');
          if (!tool) return { toolCalls: [{ name: 'search_notes', arguments: { query: 'Q3 offsite venue' } }] };
          const match = JSON.parse(tool.content).matches[0];
          return { text: `${match.text.replace(/^- /, '')} (from ${match.file})` };
        },
      });
      return { env: { OLLAMA_HOST: ollama.url }, close: () => ollama.close() };
    },
  },
  {
    key: 'hybrid',
    title:
      'A hybrid leaf on a Worker: support-triage (a classifier routes to a billing or a technical specialist, an evaluator grades each reply)',
    question: SUPPORT_QUESTIONS[0].question,
    // `agentdef ask` shows the route and the verdicts: the billing reply fails once, its retry passes.
    shows: /^hybrid: routed to billing \(label billing\); evaluator: billing failed, billing passed$/m,
    alsoRecorded: SUPPORT_QUESTIONS.slice(1),
    recording: `${RECORDINGS}/support-triage`,
    recordAgainst: async () => {
      const { startScriptedProvider, supportDeskTurn, SUPPORT_SECRETS } = standIns();
      const openai = await startScriptedProvider({
        wire: 'openai-chat',
        apiKey: SUPPORT_SECRETS.OPENAI_API_KEY,
        script: supportDeskTurn,
      });
      const anthropic = await startScriptedProvider({
        wire: 'anthropic-messages',
        apiKey: SUPPORT_SECRETS.ANTHROPIC_API_KEY,
        script: supportDeskTurn,
      });
      return {
        env: {
          AGENTDEF_BASE_URL_OPENAI: openai.baseUrl,
          AGENTDEF_BASE_URL_ANTHROPIC: anthropic.url,
          AGENTDEF_SECRET_OPENAI_API_KEY: SUPPORT_SECRETS.OPENAI_API_KEY,
          AGENTDEF_SECRET_ANTHROPIC_API_KEY: SUPPORT_SECRETS.ANTHROPIC_API_KEY,
        },
        secrets: Object.values(SUPPORT_SECRETS),
        close: async () => {
          await openai.close();
          await anthropic.close();
        },
      };
    },
  },
];

function print(text) {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** A loopback port nothing listens on right now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** This process's environment without agentdef's, Nx's or npm's own variables, HOME and caches in `scratch`. */
function isolatedEnv(scratch, extra) {
  const env = {};
  for (const [name, value] of Object.entries(process.env))
    if (!/^(AGENTDEF_|NX_|npm_|WRANGLER_|CLOUDFLARE_)/.test(name)) env[name] = value;
  return {
    ...env,
    HOME: join(scratch, 'home'),
    XDG_CONFIG_HOME: join(scratch, 'home', '.config'),
    XDG_CACHE_HOME: join(scratch, 'home', '.cache'),
    XDG_STATE_HOME: join(scratch, 'home', '.local', 'state'),
    WRANGLER_LOG_PATH: join(scratch, 'wrangler-logs'),
    AGENTDEF_STATE_DIR: join(scratch, 'state'),
    AGENTDEF_KEYCHAIN: 'off',
    ...extra,
  };
}

/** `args` as the user types them, with the scratch folder shown as <scratch>. */
function shown(args, scratch) {
  return args
    .map((a) => (/^[\w@%+=:,./<>-]+$/.test(a) ? a : `'${a.replaceAll("'", `'\\''`)}'`))
    .join(' ')
    .split(scratch)
    .join('<scratch>');
}

/**
 * Runs `agentdef <args>` to the end (asynchronously: the stub model servers answer from this
 * process), printing the command and what it printed; resolves with its exit code and stdout.
 */
function agentdef(args, env, scratch) {
  print(`$ agentdef ${shown(args, scratch)}`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (stdout) print(stdout.split(scratch).join('<scratch>'));
      if (stderr) print(stderr.split(scratch).join('<scratch>'));
      printed.push(stdout, stderr);
      resolve({ status: signal ?? code, stdout });
    });
  });
}

/** Starts `agentdef dev` (with `extra` arguments), resolves with the served URL once it prints its ask line (its ready line). */
function startDev(out, port, env, extra) {
  print(`$ agentdef dev ${out} --port ${port}${extra.length ? ` ${extra.join(' ')}` : ''}`);
  const child = spawn(process.execPath, [cli, 'dev', out, '--port', String(port), ...extra], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`agentdef dev printed no ready line within ${READY_MS / 1000}s:\n${stdout}${stderr}`)),
      READY_MS,
    );
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const url = /serves A2A at (http:\/\/127\.0\.0\.1:\d+)\/?/.exec(stdout)?.[1];
      if (url && /^stop with Ctrl-C$/m.test(stdout)) {
        clearTimeout(timer);
        resolve(url);
      }
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`agentdef dev exited (${signal ?? code}) before it served:\n${stdout}${stderr}`));
    });
  });
  return { child, ready, exited, output: () => ({ stdout, stderr }) };
}

/** Interrupts `agentdef dev` as Ctrl-C would and waits for it to exit (SIGKILL past STOP_MS). */
async function stopDev(dev) {
  dev.child.kill('SIGINT');
  const timer = setTimeout(() => dev.child.kill('SIGKILL'), STOP_MS);
  const result = await dev.exited;
  clearTimeout(timer);
  return result;
}

/** Whether anything still accepts connections on the loopback port. */
function listening(port) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Removes the exchange files of a recording folder before it is recorded again (only files named `<64 hex>.json`). */
function clearRecording(folder) {
  const dir = join(root, folder);
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) if (/^[0-9a-f]{64}\.json$/.test(name)) rmSync(join(dir, name));
}

async function runExample(example, out, scratch, keyFile, receiptSecret, record) {
  print(`\n== ${example.title}`);
  if (!existsSync(join(root, out))) throw new Error(`${out} does not exist: compile the example first`);
  // Replayed (no key, no model server), or recorded against the stand-in.
  const model = example.recording && record ? await example.recordAgainst() : { env: {}, close: async () => {} };
  standInSecrets.push(...(model.secrets ?? []));
  if (example.recording && record) clearRecording(example.recording);
  const models = example.recording ? [record ? '--record' : '--replay', example.recording] : [];
  const env = isolatedEnv(scratch, { AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: receiptSecret, ...model.env });
  const problems = [];
  // A free port can be taken again between our check and workerd's bind (by miniflare's own
  // loopback server, say): then dev exits saying so, and another port is tried.
  let port;
  let dev;
  let url;
  for (let attempt = 1; url === undefined; attempt++) {
    port = await freePort();
    dev = startDev(out, port, env, models);
    try {
      url = await dev.ready;
    } catch (error) {
      if (attempt >= 3 || !/already in use/i.test(dev.output().stderr)) throw error;
      await stopDev(dev);
      print(`(port ${port} was taken meanwhile: trying another)`);
    }
  }
  try {
    print(dev.output().stdout.split(scratch).join('<scratch>').trimEnd());
    const ask = await agentdef(['ask', url, example.question, '--key', keyFile], env, scratch);
    if (ask.status !== 0) problems.push(`agentdef ask exited ${ask.status}`);
    if (!/^state: completed$/m.test(ask.stdout)) problems.push('the task did not complete');
    if (!/^receipt: verified /m.test(ask.stdout)) problems.push('the receipt the host returned was not verified');
    if (example.shows && !example.shows.test(ask.stdout)) problems.push(`agentdef ask did not print ${example.shows}`);
    // A replayed run says so (the signed receipt's modelsReplayed); a recorded one answered live.
    if (
      example.recording &&
      !record &&
      !/^models: replayed from a recording, not a live model \(the receipt says so\)$/m.test(ask.stdout)
    )
      problems.push('the answer does not say its models were replayed');
    if (example.recording && !/^ {2}models: {5}(replayed from|recorded into) /m.test(dev.output().stdout))
      problems.push('agentdef dev did not say where the models answer from');
    // Recording: the other questions the recording keeps, each ending as the scripted desk makes it.
    for (const more of record ? (example.alsoRecorded ?? []) : []) {
      const asked = await agentdef(['ask', url, more.question, '--key', keyFile], env, scratch);
      if (!new RegExp(`^state: ${more.state}$`, 'm').test(asked.stdout))
        problems.push(`${JSON.stringify(more.question)} did not end ${more.state}`);
      if (!/^receipt: verified /m.test(asked.stdout))
        problems.push(`the receipt of ${JSON.stringify(more.question)} was not verified`);
    }
    const deploy = await agentdef(['deploy', out, '--dry-run', ...(example.deployArgs ?? [])], env, scratch);
    if (deploy.status !== 0) problems.push(`agentdef deploy --dry-run exited ${deploy.status}`);
  } finally {
    const { code, signal } = await stopDev(dev);
    print(`(Ctrl-C) agentdef dev exited ${signal ?? code}`);
    // Clean: exit 0 (dev stops its host itself, whatever the target), no error printed, the port free.
    const { stdout, stderr } = dev.output();
    if (code !== 0 || /^error/m.test(stderr))
      problems.push(`agentdef dev did not exit cleanly after SIGINT (${signal ?? code}):\n${stderr}`);
    printed.push(stdout, stderr);
    if (await listening(port)) problems.push(`port ${port} still accepts connections after agentdef dev exited`);
    await model.close();
  }
  if (example.receiptsOf) {
    // The process hosts also append every receipt to their receipts file: all of them verify.
    const verify = await agentdef(
      ['verify', join(scratch, 'state', example.receiptsOf, 'receipts.jsonl'), '--key', keyFile],
      env,
      scratch,
    );
    if (verify.status !== 0) problems.push(`agentdef verify of the receipts file exited ${verify.status}`);
  }
  for (const problem of problems) process.stderr.write(`run-dev-ask-examples: ${example.key}: ${problem}\n`);
  return problems.length;
}

async function main() {
  const { values } = parseArgs({
    options: {
      worker: { type: 'string' },
      hb3: { type: 'string' },
      local: { type: 'string' },
      hybrid: { type: 'string' },
      record: { type: 'boolean', default: false },
    },
    strict: true,
  });
  mkdirSync(join(root, 'tmp'), { recursive: true });
  const scratch = mkdtempSync(join(root, 'tmp', 'dev-ask-'));
  try {
    // A fresh receipt key: the private JWK is the hosts' secret, the public one what ask and verify check with.
    const pair = generateKeyPairSync('ed25519');
    const keyFile = join(scratch, 'receipt-key.public.jwk');
    writeFileSync(keyFile, JSON.stringify(pair.publicKey.export({ format: 'jwk' })));
    const receiptSecret = JSON.stringify(pair.privateKey.export({ format: 'jwk' }));
    let failures = 0;
    for (const example of EXAMPLES)
      failures += await runExample(
        example,
        values[example.key] ?? DEFAULT_OUTPUTS[example.key],
        scratch,
        keyFile,
        receiptSecret,
        values.record,
      );
    // No secret value in any output: not the receipt key's private part, not the model API key.
    const secrets = [pair.privateKey.export({ format: 'jwk' }).d, STUB_API_KEY, ...standInSecrets];
    if (printed.some((text) => secrets.some((secret) => text.includes(secret)))) {
      process.stderr.write('run-dev-ask-examples: a secret value appeared in the output of agentdef\n');
      failures++;
    }
    return failures === 0 ? 0 : 1;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`run-dev-ask-examples: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
