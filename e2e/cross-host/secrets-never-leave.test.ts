/**
 * "No secret leaves", on real hosts: fallback-writer compiled for the Worker (workerd through
 * miniflare), for HB3 and for the local launcher (Node processes, `agentdef run`), against a stub
 * Anthropic model on loopback that repeats the API key it was sent: in a tool call's arguments,
 * then in its answer, as is, JSON-escaped, base64-encoded, and (issue 23) in every other encoding
 * the redactor claims: upper and lower case, hex, `\uXXXX` escapes, full percent-encoding, HTML
 * references, fullwidth forms, zero-width-interleaved. Every output is also checked with an
 * oracle that decodes each of those on its own. The A2A answer and the task, a streamed run's every
 * event (progress updates, artifact chunks, the terminal status with its receipt), ListTasks with
 * history and artifacts, the host's logs (stdout, stderr; workerd's output) and the receipts carry
 * none of it; the tool never receives it; and every receipt verifies from its text as stored.
 * Issue 25: on the Node hosts the runs' OpenTelemetry spans, sent to a loopback OTLP receiver,
 * decode as OTLP and hold none of it either.
 */
import { readFileSync } from 'node:fs';
import { Role, type StreamResponse, TaskState } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedProvider,
  type ScriptTurn,
  type TurnContext,
} from '../../plugin/runtime/__test-support__/stub-provider';
import { encodedForms, holdsSecret } from '../../plugin/runtime/__test-support__/secret-oracle';
import { verifyReceiptText } from '../../plugin/runtime/receipts';
import { compileAgent } from '../../plugin/compiler/compile';
import { startCompiledWorker } from '../worker/support/start-compiled-worker';
import {
  REPO,
  a2aAsk,
  agentdefRun,
  compileExample,
  isolatedEnv,
  receiptKeys,
  scratch,
  type Scratch,
} from '../local/support/host-harness';
import { startOtlpReceiver } from '../support/otlp-receiver';
import { checkOtlpJson, spansOf } from '../support/otlp-validate';

const ANTHROPIC_KEY = 'sk-ant-e2e-leak-' + 'Q7vR2mX9kL4pT8wZ';

/** A model that repeats its key: first into the tool's arguments, then into its answer. */
function echoingModel(_index: number, ctx: TurnContext): ScriptTurn {
  if (ctx.lastToolResults.length === 0)
    return {
      toolCalls: [
        {
          name: 'apply_unified_diff',
          arguments: { source: `token=${ANTHROPIC_KEY}\n`, diff: `@@ -1 +1 @@\n-token=${ANTHROPIC_KEY}\n+token=x\n` },
        },
      ],
    };
  return {
    text: JSON.stringify({
      key: ANTHROPIC_KEY,
      b64: Buffer.from(`Bearer ${ANTHROPIC_KEY}`).toString('base64'),
      encoded: encodedForms(ANTHROPIC_KEY),
      seen: ctx.lastToolResults[0],
    }),
  };
}

function forms(secret: string): string[] {
  const out = [secret, encodeURIComponent(secret)];
  for (const prefix of ['', 'a', 'ab']) {
    const b64 = Buffer.from(`${prefix}${secret}`).toString('base64');
    out.push(b64.slice(Math.ceil((prefix.length * 8) / 6), Math.floor(((prefix.length + secret.length) * 8) / 6)));
  }
  return out;
}

function expectNoKey(what: string, text: string): void {
  for (const form of forms(ANTHROPIC_KEY)) expect(text.includes(form), `${what} carries a form of the key`).toBe(false);
  expect(holdsSecret(text, ANTHROPIC_KEY), `${what} carries a decodable form of the key`).toBe(false);
}

/** A streamed run of the same ask (every event the official client parsed), then ListTasks with history and artifacts: all as one text. */
async function streamedAndListed(client: Client): Promise<{ text: string; states: string[] }> {
  const events: StreamResponse[] = [];
  const message = {
    messageId: `m-stream-${Date.now()}`,
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [
      {
        content: { $case: 'text' as const, value: 'apply it, streamed' },
        metadata: undefined,
        filename: '',
        mediaType: '',
      },
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  for await (const event of client.sendMessageStream({
    tenant: '',
    message,
    configuration: undefined,
    metadata: undefined,
  }))
    events.push(event);
  const listed = await client.listTasks({
    tenant: '',
    contextId: '',
    status: TaskState.TASK_STATE_UNSPECIFIED,
    historyLength: 10,
    statusTimestampAfter: undefined,
    includeArtifacts: true,
    pageSize: 100,
    pageToken: '',
  });
  const states = events.flatMap((e) =>
    e.payload?.$case === 'statusUpdate' ? [String(e.payload.value.status?.state)] : [],
  );
  return { text: JSON.stringify({ events, listed }), states };
}

let tmp: Scratch;
let keys: Awaited<ReturnType<typeof receiptKeys>>;
beforeAll(async () => {
  tmp = scratch('secrets-never-leave');
  keys = await receiptKeys();
});
afterAll(() => tmp.cleanup());

describe('a model that repeats its API key delivers it nowhere', () => {
  it('on the Worker (workerd)', async () => {
    const model = await startScriptedProvider({
      wire: 'anthropic-messages',
      apiKey: ANTHROPIC_KEY,
      script: echoingModel,
    });
    const out = tmp.path('worker');
    const compiled = await compileAgent({
      file: 'examples/fallback-writer/agent.json',
      workspaceRoot: REPO,
      target: 'cloudflare-dynamic-worker',
      outDir: out,
    });
    expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const worker = await startCompiledWorker(out, {
      secrets: { ANTHROPIC_API_KEY: ANTHROPIC_KEY, AGENTDEF_RECEIPT_KEY: keys.secret },
      upstreams: { 'https://api.anthropic.com': model.url },
    });
    try {
      const { task, answer, client } = await a2aAsk(worker.url, 'apply it');
      expect(task.status?.state).toBe(3);
      expect(answer).toContain('[redacted]');
      expectNoKey('the task', JSON.stringify(task));
      // The tool never got the key: what it returned to the model does not hold it.
      expectNoKey(
        'the tool result the model saw',
        JSON.stringify(model.requests.slice(1).map((r) => r.body.messages.at(-1))),
      );
      const streamed = await streamedAndListed(client);
      expect(streamed.states.at(-1)).toBe(String(TaskState.TASK_STATE_COMPLETED));
      expect(streamed.text).toContain('[redacted]');
      expectNoKey('the stream and ListTasks', streamed.text);
      const receipts = await worker.receipts(2);
      expect(receipts).toHaveLength(2);
      for (const receipt of receipts) {
        const text = JSON.stringify(receipt);
        expectNoKey('the receipt', text);
        expect(await verifyReceiptText(text, keys.publicJwk)).toBe(true);
      }
      expectNoKey('the Worker logs', worker.logs.join(''));
    } finally {
      await worker.dispose();
      await model.close();
    }
  });

  it.each([
    ['the HB3 job', 'hb3'],
    ['the local launcher', 'local-mac'],
  ] as const)('on %s (a Node process)', async (_host, target) => {
    const model = await startScriptedProvider({
      wire: 'anthropic-messages',
      apiKey: ANTHROPIC_KEY,
      script: echoingModel,
    });
    const out = tmp.path(target);
    await compileExample('fallback-writer', target, out);
    const receipts = tmp.path(`${target}-receipts.jsonl`);
    // Issue 25: the runs' spans go to a loopback OTLP receiver; no attribute may hold the key.
    const collector = await startOtlpReceiver();
    const env = isolatedEnv(tmp.path(`home-${target}`), {
      AGENTDEF_SECRET_ANTHROPIC_API_KEY: ANTHROPIC_KEY,
      AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: keys.secret,
      AGENTDEF_BASE_URL_ANTHROPIC: model.url,
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    });
    const host = agentdefRun(out, ['--receipts', receipts], env);
    try {
      const { task, answer, client } = await a2aAsk(await host.ready, 'apply it');
      expect(task.status?.state).toBe(3);
      expect(answer).toContain('[redacted]');
      expectNoKey('the task', JSON.stringify(task));
      expectNoKey(
        'the tool result the model saw',
        JSON.stringify(model.requests.slice(1).map((r) => r.body.messages.at(-1))),
      );
      const streamed = await streamedAndListed(client);
      expect(streamed.states.at(-1)).toBe(String(TaskState.TASK_STATE_COMPLETED));
      expect(streamed.text).toContain('[redacted]');
      expectNoKey('the stream and ListTasks', streamed.text);
      expect(await host.stop('SIGTERM')).toBe(0);
      const lines = readFileSync(receipts, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '');
      expect(lines).toHaveLength(2);
      expectNoKey('the receipts file', lines.join('\n'));
      for (const line of lines) expect(await verifyReceiptText(line, keys.publicJwk)).toBe(true);
      expectNoKey('the host stdout', host.stdout());
      expectNoKey('the host stderr', host.stderr());
      // The host flushed its background work (receipts, spans) before it exited.
      const exported = collector.received;
      expect(exported).toHaveLength(2);
      for (const e of exported) {
        expect(checkOtlpJson('ExportTraceServiceRequest', e.body).problems).toEqual([]);
        expect(spansOf(e.body).some((s) => s.attrs['gen_ai.operation.name'] === 'chat')).toBe(true);
        expectNoKey('the exported spans', e.text);
      }
    } finally {
      await host.stop('SIGKILL');
      await model.close();
      await collector.close();
    }
  });
});
