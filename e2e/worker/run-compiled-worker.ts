/**
 * Starts one compiled example agent in workerd behind its loader (miniflare, no network), sends
 * it one A2A message with the @a2a-js/sdk client and returns the answer, for the README's main
 * job. An agentic example gets a stub model provider on 127.0.0.1 in place of its real provider
 * (it answers in one deterministic turn, saying what it was asked); tool-only examples and their
 * quarantined children run as they are.
 *
 *   node -r @swc-node/register e2e/worker/run-compiled-worker.ts <example> ["message"] [--out dist/agents/<example>] [--direct]
 *   node scripts/run-worker-example.mjs <example> ["message"]       (the same)
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { compileAgent } from '../../plugin/compiler/compile';
import type { HostPlan } from '../../plugin/host-contract/worker-host-plan';
import { startScriptedProvider, type StubServer, type Wire } from '../../plugin/runtime/__test-support__/stub-provider';
import { generateReceiptKeyPair, verifyReceipt } from '../../plugin/runtime/receipts';
import { askWithSdk } from './support/a2a-client';
import { repoRoot } from './support/example-workspace';
import { startCompiledWorker } from './support/start-compiled-worker';

export interface RunExampleOptions {
  /** The example's slug (a folder of `examples/`). */
  example: string;
  message: string;
  /** A compiled output folder to run (e.g. `dist/agents/<example>`); default: compile the example now into `tmp/run-worker/<example>`. */
  outDir?: string;
  /** `loader` (default): through loader.js and its host plan; `direct`: worker.js as an ordinary Worker. */
  mode?: 'loader' | 'direct';
}

export interface RunExampleResult {
  agent: string;
  mode: 'loader' | 'direct';
  /** The card's name and skills, as the SDK client read them. */
  card: { name: string; skills: string[] };
  state: 'completed' | 'failed' | 'other';
  answer: string;
  /** Receipts the run left in the receipt sink, and how many verify against the public key. */
  receipts: number;
  verifiedReceipts: number;
  /** Whether a stub model provider stood in for the agent's real one. */
  stubModel: boolean;
}

const PROVIDERS: Readonly<Record<string, Wire>> = {
  'https://api.openai.com': 'openai-chat',
  'https://api.anthropic.com': 'anthropic-messages',
};
const STUB_KEY = 'sk-stub-0123456789abcdefghij';

async function compiledOutput(example: string, outDir: string | undefined): Promise<string> {
  if (outDir !== undefined) {
    const absolute = resolve(repoRoot, outDir);
    if (!existsSync(join(absolute, 'host-plan.json')))
      throw new Error(`${outDir} holds no host-plan.json: compile the example for cloudflare-dynamic-worker first`);
    return absolute;
  }
  const target = join(repoRoot, 'tmp', 'run-worker', example);
  const result = await compileAgent({
    file: `examples/${example}/agent.json`,
    workspaceRoot: repoRoot,
    target: 'cloudflare-dynamic-worker',
    outDir: target,
  });
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (result.ioError !== undefined || errors.length > 0 || !result.files) {
    throw new Error(
      `compiling ${example} for Workers failed: ${result.ioError ?? errors.map((d) => `${d.file}:${d.line}: ${d.message}`).join('; ')}`,
    );
  }
  return target;
}

/** Every origin any isolate of the plan may reach (the root's and its quarantined children's). */
function reachableOrigins(plan: HostPlan): string[] {
  return [...new Set([...plan.egress.allow, ...plan.isolates.flatMap((i) => i.egress.allow)])];
}

export async function runCompiledWorkerExample(options: RunExampleOptions): Promise<RunExampleResult> {
  const outDir = await compiledOutput(options.example, options.outDir);
  const plan = JSON.parse(readFileSync(join(outDir, 'host-plan.json'), 'utf8')) as HostPlan;
  const keys = await generateReceiptKeyPair();
  const secrets: Record<string, string> = {};
  for (const binding of plan.bindings) {
    if (binding.kind !== 'secret-ref') continue;
    secrets[binding.name] = binding.purpose === 'receipt-key' ? JSON.stringify(keys.privateJwk) : STUB_KEY;
  }
  const stubs: StubServer[] = [];
  const upstreams: Record<string, string> = {};
  for (const origin of reachableOrigins(plan)) {
    const wire = PROVIDERS[origin];
    if (!wire) continue;
    const stub = await startScriptedProvider({
      wire,
      apiKey: STUB_KEY,
      script: [{ text: (ctx) => `(stub model) I was asked: ${JSON.stringify(ctx.allText.split('\n').at(-1) ?? '')}` }],
    });
    stubs.push(stub);
    upstreams[origin] = stub.url;
  }
  const mode = options.mode ?? 'loader';
  const worker = await startCompiledWorker(outDir, { mode, secrets, upstreams });
  try {
    const answer = await askWithSdk(worker.url, options.message);
    const signs = plan.receiptSink !== undefined;
    const receipts = signs ? (await worker.receipts(1)).filter((r) => r.runId === answer.taskId) : [];
    let verified = 0;
    for (const receipt of receipts) if (await verifyReceipt(receipt, keys.publicJwk)) verified++;
    return {
      agent: `${plan.agent.slug}@${plan.agent.version}`,
      mode,
      card: { name: answer.card.name, skills: answer.card.skills.map((s) => s.id) },
      state: answer.state === 3 ? 'completed' : answer.state === 4 ? 'failed' : 'other',
      answer: answer.text,
      receipts: receipts.length,
      verifiedReceipts: verified,
      stubModel: stubs.length > 0,
    };
  } finally {
    await worker.dispose();
    for (const stub of stubs) await stub.close();
  }
}

const DEFAULT_MESSAGES: Readonly<Record<string, string>> = {
  'text-digest': 'Workers run agents in isolates. Each agent gets its own isolate, and isolates share nothing.',
  'text-stats': 'Workers run agents.\nAgents call tools.',
  'keyword-extract': 'Workers run agents. Agents call tools; tools run in Workers.',
  'text-classify': 'export const answer = 42;',
};

async function main(argv: string[]): Promise<number> {
  const positional = argv.filter((a, i) => !a.startsWith('--') && argv[i - 1] !== '--out');
  const outIndex = argv.indexOf('--out');
  const example = positional[0];
  if (!example) {
    process.stderr.write('usage: run-compiled-worker <example> ["message"] [--out <compiled folder>] [--direct]\n');
    return 2;
  }
  const message = positional[1] ?? DEFAULT_MESSAGES[example] ?? 'Hello from the A2A SDK client.';
  const result = await runCompiledWorkerExample({
    example,
    message,
    ...(outIndex >= 0 && argv[outIndex + 1] ? { outDir: argv[outIndex + 1]! } : {}),
    ...(argv.includes('--direct') ? { mode: 'direct' as const } : {}),
  });
  process.stdout.write(
    [
      `agent: ${result.agent} (${result.mode === 'loader' ? 'loaded through loader.js by a Worker Loader binding' : 'worker.js as an ordinary Worker'}, workerd via miniflare)`,
      `card: ${result.card.name} (skills: ${result.card.skills.join(', ')})`,
      `asked: ${JSON.stringify(message)}`,
      `state: ${result.state}`,
      `answer: ${result.answer}`,
      `receipts: ${result.receipts} (${result.verifiedReceipts} verified)${result.stubModel ? '\nmodel: a stub provider on 127.0.0.1 stood in for the real one' : ''}`,
      '',
    ].join('\n'),
  );
  return result.state === 'completed' ? 0 : 1;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
