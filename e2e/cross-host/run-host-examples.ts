/**
 * For the README's main job: runs one HB3 job (splice-resolver, the tuned specialist) and one
 * local launcher (local-notes, Ollama + the notes MCP server) on this machine, asks each one A2A
 * question with the @a2a-js/sdk client, and prints their answers. No network and no model server:
 * the models are replayed from examples/recordings/<agent> (`AGENTDEF_REPLAY`, which `agentdef run`
 * reads); the checkpoint is a fake folder, the native tool a fake executable, the receipt key a
 * fresh one; nothing is written to $HOME. `--record` makes the recordings again, against the test
 * suite's stand-ins on 127.0.0.1 (an OpenAI-compatible in-container inference server, an Ollama).
 *
 *   node scripts/run-host-examples.mjs [--hb3-out dist/agents/splice-resolver] [--local-out dist/agents/local-notes] [--record]
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { verifyReceipt } from '../../plugin/runtime/receipts';
import { SPLICE_INPUT, fakeCheckpoint, fakeParseSpans, startInferenceStub } from '../hb3/support';
import {
  REPO,
  a2aAsk,
  agentdefRun,
  compileExample,
  isolatedEnv,
  readReceipts,
  receiptKeys,
} from '../local/support/host-harness';
import { startStubOllama } from '../local/support/stub-ollama';

const QUESTION = 'what did we decide about the Q3 offsite venue?';
const RECORDINGS = 'examples/recordings';

/** How a host's models answer: replayed from examples/recordings/<slug>, or (recording) a stand-in started here whose answers are recorded there. */
async function models(
  slug: string,
  record: boolean,
  standIn: () => Promise<{ env: NodeJS.ProcessEnv; close(): Promise<void> }>,
): Promise<{ env: NodeJS.ProcessEnv; close(): Promise<void>; line: string }> {
  const folder = `${RECORDINGS}/${slug}`;
  if (!record)
    return {
      env: { AGENTDEF_REPLAY: folder },
      close: async () => {},
      line: `models:     replayed from ${folder} (no API key used)`,
    };
  const dir = join(REPO, folder);
  if (existsSync(dir))
    for (const name of readdirSync(dir)) if (/^[0-9a-f]{64}\.json$/.test(name)) rmSync(join(dir, name));
  const started = await standIn();
  return {
    env: { ...started.env, AGENTDEF_RECORD: folder },
    close: () => started.close(),
    line: `models:     recorded into ${folder} against a scripted stand-in`,
  };
}

async function output(
  slug: string,
  target: 'hb3' | 'local-mac',
  given: string | undefined,
  work: string,
): Promise<string> {
  if (given !== undefined) {
    const absolute = resolve(REPO, given);
    const marker = target === 'hb3' ? 'hb3-job.json' : 'launcher.json';
    if (!existsSync(join(absolute, marker)))
      throw new Error(`${given} holds no ${marker}: compile ${slug} with --target ${target} first`);
    return absolute;
  }
  const out = join(work, slug);
  await compileExample(slug, target, out);
  return out;
}

export async function runHostExamples(options: {
  hb3Out?: string;
  localOut?: string;
  record?: boolean;
  log: (line: string) => void;
}): Promise<number> {
  mkdirSync(join(REPO, 'tmp'), { recursive: true });
  const work = mkdtempSync(join(REPO, 'tmp', 'run-hosts-'));
  try {
    return await runBoth(work, options);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function runBoth(
  work: string,
  options: { hb3Out?: string; localOut?: string; record?: boolean; log: (line: string) => void },
): Promise<number> {
  const keys = await receiptKeys();
  const env = (extra: NodeJS.ProcessEnv) =>
    isolatedEnv(join(work, 'home'), { AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: keys.secret, ...extra });
  let failures = 0;

  // One HB3 job: the tuned specialist, its checkpoint mapped to a local folder.
  const hb3Out = await output('splice-resolver', 'hb3', options.hb3Out, work);
  const digest = fakeCheckpoint(join(work, 'weights'));
  fakeParseSpans(join(work, 'bin'), join(work, 'parse_spans.log'));
  const inference = await models('splice-resolver', options.record === true, async () => {
    const stub = await startInferenceStub();
    return { env: { AGENTDEF_INFERENCE_BASE_URL: stub.baseUrl }, close: () => stub.close() };
  });
  const hb3Receipts = join(work, 'splice-resolver.receipts.jsonl');
  const job = agentdefRun(
    hb3Out,
    ['--weights', join(work, 'weights'), '--receipts', hb3Receipts],
    env({ AGENTDEF_NATIVE_BIN: join(work, 'bin'), ...inference.env }),
  );
  try {
    const url = await job.ready;
    const health = (await (await fetch(`${url}/healthz`)).json()) as {
      checkpoints: { digest: string; files: number }[];
    };
    const read = health.checkpoints[0];
    const { answer, task } = await a2aAsk(url, SPLICE_INPUT);
    const code = await job.exited;
    const receipts = readReceipts(hb3Receipts);
    const verified = (await Promise.all(receipts.map((r) => verifyReceipt(r, keys.publicJwk)))).filter(Boolean).length;
    options.log('== HB3 job: splice-resolver@0.4.2 (agentdef run, kind Job)');
    options.log(`served at:  ${url}/`);
    options.log(inference.line);
    options.log(
      `checkpoint: ckpt:acme/splice-resolver/2026-10-02 read by the job from a local folder: ${read?.files} files, ${read?.digest}${read?.digest === digest ? ' (as expected)' : ` (expected ${digest})`}`,
    );
    options.log(`asked:      ${JSON.stringify(SPLICE_INPUT)}`);
    options.log(`answer:     ${answer}`);
    options.log(
      `state: ${task.status?.state === 3 ? 'completed' : 'failed'}; the job exited ${code} after its task; receipts: ${receipts.length} (${verified} verified)`,
    );
    if (task.status?.state !== 3 || code !== 0 || verified !== 1 || read?.digest !== digest) failures++;
  } finally {
    await job.stop('SIGKILL');
    await inference.close();
  }

  // One local launcher: local-notes with Ollama (a stub) and its stdio MCP server.
  const localOut = await output('local-notes', 'local-mac', options.localOut, work);
  const ollama = await models('local-notes', options.record === true, async () => {
    const stub = await startStubOllama({
      models: ['llama3.1:8b'],
      respond: (chat) => {
        const tool = chat.messages.find((m) => m.role === 'tool');
        if (!tool) return { toolCalls: [{ name: 'search_notes', arguments: { query: 'Q3 offsite venue' } }] };
        const match = (JSON.parse(tool.content) as { matches: { file: string; text: string }[] }).matches[0]!;
        return { text: `${match.text.replace(/^- /, '')} (from ${match.file})` };
      },
    });
    return { env: { OLLAMA_HOST: stub.url }, close: () => stub.close() };
  });
  const localReceipts = join(work, 'local-notes.receipts.jsonl');
  const launcher = agentdefRun(localOut, ['--receipts', localReceipts], env(ollama.env));
  try {
    const url = await launcher.ready;
    const { answer, task } = await a2aAsk(url, QUESTION);
    const code = await launcher.stop('SIGTERM');
    const receipts = readReceipts(localReceipts);
    const verified = (await Promise.all(receipts.map((r) => verifyReceipt(r, keys.publicJwk)))).filter(Boolean).length;
    options.log(
      '== Local launcher: local-notes@0.3.0 (agentdef run of launch.mjs; Ollama and the notes MCP server on this machine)',
    );
    options.log(`served at:  ${url}/`);
    options.log(ollama.line);
    options.log(`asked:      ${JSON.stringify(QUESTION)}`);
    options.log(`answer:     ${answer}`);
    options.log(
      `state: ${task.status?.state === 3 ? 'completed' : 'failed'}; SIGTERM -> exit ${code}; receipts: ${receipts.length} (${verified} verified)`,
    );
    if (task.status?.state !== 3 || code !== 0 || verified !== 1) failures++;
  } finally {
    await launcher.stop('SIGKILL');
    await ollama.close();
  }
  return failures === 0 ? 0 : 1;
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  const flag = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
  const hb3Out = flag('--hb3-out');
  const localOut = flag('--local-out');
  runHostExamples({
    ...(hb3Out ? { hb3Out } : {}),
    ...(localOut ? { localOut } : {}),
    record: argv.includes('--record'),
    log: (line) => process.stdout.write(`${line}\n`),
  }).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`run-host-examples: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
