/**
 * A two-level dag with quarantine (text-digest → text-classify, then keyword-extract when the
 * text is prose) compiled for Workers and run in workerd. Each child runs in its own dynamically
 * loaded isolate, fresh for every parent run and without network; the conditional edge is
 * evaluated in code; every node's run leaves one signed receipt carrying the parent's run id.
 */
import { TaskState } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedProvider } from '../../plugin/runtime/__test-support__/stub-provider';
import { generateReceiptKeyPair, verifyReceipt } from '../../plugin/runtime/receipts';
import { askWithSdk } from './support/a2a-client';
import { compileWorker, exampleWorkspace, type ExampleWorkspace } from './support/example-workspace';
import { startCompiledWorker, type StartedWorker } from './support/start-compiled-worker';

let ws: ExampleWorkspace;
let keys: { privateJwk: JsonWebKey; publicJwk: JsonWebKey };
const started: StartedWorker[] = [];
const PROSE = 'Isolates keep agents apart. Each agent gets a fresh isolate, and isolates share nothing.';
const CODE = 'export function add(a: number, b: number) {\n  return a + b;\n}\nconst total = add(1, 2);';

beforeAll(async () => {
  ws = exampleWorkspace('dag');
  keys = await generateReceiptKeyPair();
});
afterAll(async () => {
  for (const worker of started.splice(0)) await worker.dispose();
  ws.remove();
});

async function start(mode: 'loader' | 'direct' = 'loader') {
  const compiled = await compileWorker(ws.root, 'text-digest');
  expect(compiled.result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const worker = await startCompiledWorker(compiled.outDir, {
    mode,
    secrets: { AGENTDEF_RECEIPT_KEY: JSON.stringify(keys.privateJwk) },
  });
  started.push(worker);
  return worker;
}

describe('text-digest: a two-level dag with quarantine, in workerd', () => {
  it('routes prose through the classifier to the keyword extractor, each in its own isolate, with one receipt per node', async () => {
    const worker = await start();
    expect(worker.hostPlan.isolates.map((i) => i.nodeId)).toEqual([
      'text-digest@1.0.0/keyword-extract@1.0.0',
      'text-digest@1.0.0/text-classify@1.0.0',
    ]);
    const answer = await askWithSdk(worker.url, PROSE);
    expect(answer.card.name).toBe('Text digest');
    expect(answer.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(JSON.parse(answer.text).keywords.slice(0, 2)).toEqual([
      { word: 'isolates', count: 2 },
      { word: 'agent', count: 1 },
    ]);
    const receipts = await worker.receipts(3);
    expect(receipts).toHaveLength(3);
    expect(receipts.every((r) => r.runId === answer.taskId)).toBe(true);
    expect(receipts.map((r) => r.pinning.card).sort()).toEqual(['keyword-extract', 'text-classify', 'text-digest']);
    for (const receipt of receipts) expect(await verifyReceipt(receipt, keys.publicJwk)).toBe(true);
    const children = receipts.filter((r) => r.composedIn);
    expect(children.map((r) => r.composedIn)).toEqual([
      { card: 'text-digest', cardVersion: '1.0.0' },
      { card: 'text-digest', cardVersion: '1.0.0' },
    ]);
    const root = receipts.find((r) => r.pinning.card === 'text-digest')!;
    expect(root.composition).toEqual({
      nodes: [
        { card: 'text-classify', cardVersion: '1.0.0', status: 'ran', stopReason: 'answer' },
        { card: 'keyword-extract', cardVersion: '1.0.0', status: 'ran', stopReason: 'answer' },
      ],
    });
    expect(worker.outbound).toEqual([]);
  });

  it('stops at the classifier for code: the conditional edge is not taken and the extractor is skipped', async () => {
    const worker = await start();
    const answer = await askWithSdk(worker.url, CODE);
    expect(JSON.parse(answer.text)).toMatchObject({ kind: 'code', lines: 4 });
    const receipts = await worker.receipts(2);
    expect(receipts.map((r) => r.pinning.card).sort()).toEqual(['text-classify', 'text-digest']);
    expect(receipts.find((r) => r.pinning.card === 'text-digest')!.composition!.nodes.map((n) => n.status)).toEqual([
      'ran',
      'skipped',
    ]);
  });

  it('gives each child a fresh isolate per parent run, with no network', async () => {
    // A classifier that also reports its isolate's module state and whether it can reach the network.
    ws.write(
      'examples/tools/probing-classify.ts',
      [
        "import { classifyText } from './text-classify';",
        'let runsInThisIsolate = 0;',
        'export async function probingClassify(args: Record<string, unknown>) {',
        '  runsInThisIsolate++;',
        "  let network = 'open';",
        "  try { await fetch('https://web.archive.org/'); } catch { network = 'none'; }",
        '  return { ...classifyText(args), runsInThisIsolate, network };',
        '}',
        '',
      ].join('\n'),
    );
    const tools = JSON.parse(ws.read('tools.json')) as { tools: Record<string, unknown> };
    tools.tools['text-classify'] = { module: './examples/tools/probing-classify.ts', export: 'probingClassify' };
    ws.write('tools.json', JSON.stringify(tools, null, 2));
    const worker = await start();
    const first = JSON.parse((await askWithSdk(worker.url, CODE)).text);
    const second = JSON.parse((await askWithSdk(worker.url, CODE)).text);
    expect([first.runsInThisIsolate, second.runsInThisIsolate]).toEqual([1, 1]);
    expect([first.network, second.network]).toEqual(['none', 'none']);
    expect(worker.outbound).toEqual([]);
  });

  it('lets the router pin decide an llm-decides edge, calling its provider through the egress gateway', async () => {
    const routed = exampleWorkspace('dag-router');
    try {
      routed.edit('text-digest', (d) => {
        d.modelSet = [
          {
            role: 'router',
            modelId: 'gpt-4o-mini',
            modelVersion: '2024-07-18',
            providerId: 'openai',
            samplingParams: { temperature: 0 },
            tier: 'small',
          },
        ];
        d.telemetryContract.agenticGate = 'agentic';
        d.telemetryContract.kymRegistrationRequired = true;
        d.lifecycleState = 'composed';
        d.identity.kymRef = 'kym://agents/text-digest@1.0.0';
        d.composition.edges = [{ from: 'text-classify', to: 'keyword-extract', gate: 'llm-decides' }];
        d.runtimeRequirements.bindings.push({
          kind: 'secret-ref',
          name: 'OPENAI_API_KEY',
          ref: 'secrets-store://acme/openai',
        });
      });
      const provider = await startScriptedProvider({
        wire: 'openai-chat',
        apiKey: 'router-key-0123456789',
        script: [{ text: 'keyword-extract' }],
      });
      try {
        const compiled = await compileWorker(routed.root, 'text-digest');
        expect(compiled.result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        const worker = await startCompiledWorker(compiled.outDir, {
          secrets: { AGENTDEF_RECEIPT_KEY: JSON.stringify(keys.privateJwk), OPENAI_API_KEY: 'router-key-0123456789' },
          upstreams: { 'https://api.openai.com': provider.url },
        });
        started.push(worker);
        // Code, which the conditional edge would have stopped at the classifier: the router sends it on.
        const answer = await askWithSdk(worker.url, CODE);
        expect(answer.state).toBe(TaskState.TASK_STATE_COMPLETED);
        expect(JSON.parse(answer.text).keywords.map((k: { word: string }) => k.word)).toContain('total');
        expect(provider.requests).toHaveLength(1);
        expect(JSON.stringify(provider.requests[0]!.body.messages)).toContain(
          'Choose the next agent, one of: keyword-extract',
        );
        expect(worker.outbound.map((o) => o.url)).toEqual(['https://api.openai.com/v1/chat/completions']);
        const receipts = await worker.receipts(3);
        expect(receipts.find((r) => r.pinning.card === 'text-digest')!.models).toEqual([
          { role: 'router', providerId: 'openai', model: 'gpt-4o-mini-2024-07-18', modelVersion: '2024-07-18' },
        ]);
      } finally {
        await provider.close();
      }
    } finally {
      routed.remove();
    }
  });

  it('runs the same way as an ordinary Worker with its own Worker Loader binding', async () => {
    const worker = await start('direct');
    const answer = await askWithSdk(worker.url, PROSE);
    expect(JSON.parse(answer.text).keywords[0]).toEqual({ word: 'isolates', count: 2 });
    const receipts = await worker.receipts(3);
    expect(receipts.map((r) => r.pinning.card).sort()).toEqual(['keyword-extract', 'text-classify', 'text-digest']);
    for (const receipt of receipts) expect(await verifyReceipt(receipt, keys.publicJwk)).toBe(true);
  });
});
