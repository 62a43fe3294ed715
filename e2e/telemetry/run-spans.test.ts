/**
 * One run's OpenTelemetry spans, from the runtime to a loopback OTLP/HTTP receiver: an agentic run
 * (scripted OpenAI-wire provider, one tool call) and a tool-only run. What arrives decodes as an
 * `ExportTraceServiceRequest` by the official protocol definitions, carries the GenAI attributes
 * on the model span and the tool taxonomy on the tool span, its ids come from the run's random
 * source (same seed, same bytes), and no attribute carries a secret the run saw.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_KEY, agenticConfig, calcTools, toolOnlyConfig } from '../../plugin/runtime/__test-support__/configs';
import { encodedForms, holdsSecret } from '../../plugin/runtime/__test-support__/secret-oracle';
import { startScriptedProvider } from '../../plugin/runtime/__test-support__/stub-provider';
import type { RunDeps } from '../../plugin/runtime/run-agent';
import { runAgent } from '../../plugin/runtime/run-agent';
import { otlpHttpExporter, signalUrl } from '../../plugin/runtime/telemetry/otlp-http-exporter';
import { createRunTelemetry } from '../../plugin/runtime/telemetry/run-telemetry';
import { checkOtlpJson, spansOf } from '../support/otlp-validate';
import { startOtlpReceiver } from '../support/otlp-receiver';

/** Receipts off: these runs are about their spans. */
const RECEIPTS_OFF = { mode: 'off', schemaVersion: 'receipt/v1', signerRef: null } as const;

const closers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c.close()));
});

/** A seeded byte source (xorshift32): the same seed gives the same ids. */
function seeded(seed: number): NonNullable<RunDeps['random']> {
  let x = seed;
  return (bytes) => {
    for (let i = 0; i < bytes.length; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      bytes[i] = x & 0xff;
    }
    return bytes;
  };
}

/** A clock that moves 5 ms per reading, from a fixed start. */
function steppingClock(start = 1_767_225_600_000): () => number {
  let t = start;
  return () => (t += 5);
}

async function telemetryTo() {
  const receiver = await startOtlpReceiver();
  closers.push(receiver);
  const background: Promise<unknown>[] = [];
  const errors: string[] = [];
  const telemetry = createRunTelemetry({
    exporter: otlpHttpExporter({ tracesUrl: signalUrl(receiver.url, 'traces'), fetch }),
    onError: (runId) => errors.push(runId),
  });
  return { receiver, telemetry, background, errors, waitUntil: (p: Promise<unknown>) => void background.push(p) };
}

describe('a run becomes OTLP spans', () => {
  it('an agentic run: a root span, a chat span with GenAI attributes, an execute_tool span with the taxonomy', async () => {
    const provider = await startScriptedProvider({
      wire: 'openai-chat',
      apiKey: TEST_KEY,
      script: [{ toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] }, { text: 'The sum is 5.' }],
    });
    closers.push(provider);
    const sink = await telemetryTo();
    const config = agenticConfig('openai-chat', provider.baseUrl, {
      receipts: RECEIPTS_OFF,
    });
    const result = await runAgent(
      config,
      { text: 'What is 2 + 3?' },
      {
        secrets: { OPENAI_API_KEY: TEST_KEY },
        tools: calcTools,
        telemetry: sink.telemetry,
        waitUntil: sink.waitUntil,
        random: seeded(42),
        now: steppingClock(),
        definitionDigest: 'sha256:0123456789abcdef',
      },
    );
    expect(result.stopReason).toBe('answer');
    await Promise.all(sink.background);
    expect(sink.errors).toEqual([]);
    const [received] = await sink.receiver.waitFor(1);
    expect(received!.path).toBe('/v1/traces');
    expect(received!.headers['content-type']).toBe('application/json');
    const check = checkOtlpJson('ExportTraceServiceRequest', received!.body);
    expect(check.problems).toEqual([]);

    const body = received!.body as any;
    const resource = Object.fromEntries(
      body.resourceSpans[0].resource.attributes.map((a: any) => [a.key, a.value.stringValue]),
    );
    expect(resource['service.name']).toBe('calc-agent');
    expect(resource['service.version']).toBe('1.2.0');
    const spans = spansOf(body);
    expect(spans.map((s) => s.name)).toEqual([
      'invoke_agent calc-agent',
      'chat gpt-4o-mini-2024-07-18',
      'chat gpt-4o-mini-2024-07-18',
      'execute_tool add',
    ]);
    const [root, chat1, chat2, tool] = spans as [any, any, any, any];
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
    for (const child of [chat1, chat2, tool]) expect(child.parentSpanId).toBe(root.spanId);
    expect(root.attrs).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'agentdef.card': 'calc-agent',
      'agentdef.card_version': '1.2.0',
      'agentdef.skill': 'arithmetic',
      'agentdef.skill_version': '2.0.1',
      'agentdef.run.id': result.runId,
      'agentdef.lifecycle_state': 'kym-registered',
      'agentdef.agentic_gate': 'agentic',
      'agentdef.definition.version_id': '01J9ZZZZZZZZZZZZZZZZZZZZZY',
      'agentdef.definition.digest': 'sha256:0123456789abcdef',
      'agentdef.run.stop_reason': 'answer',
    });
    expect(root.attrs['agentdef.run.parent_id']).toBeUndefined();
    expect(root.status.code).toBe(1);
    expect(chat1.kind).toBe(3);
    expect(chat1.attrs).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini-2024-07-18',
      'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
      'agentdef.model.role': 'primary',
      'agentdef.model.version': '2024-07-18',
    });
    expect(Number(chat1.attrs['gen_ai.usage.input_tokens'])).toBeGreaterThan(0);
    expect(Number(chat1.attrs['gen_ai.usage.output_tokens'])).toBeGreaterThan(0);
    expect(tool.attrs).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'add',
      'agentdef.tool.category': 'bundled',
      'agentdef.tool.tool': 'calc.add',
      'agentdef.tool.operation': 'add',
      'agentdef.tool.ok': true,
    });
    // Real start and end times from the run's clock: each call inside the run, ends after it starts.
    const start = BigInt(root.startTimeUnixNano);
    const end = BigInt(root.endTimeUnixNano);
    for (const s of [chat1, chat2, tool]) {
      expect(BigInt(s.startTimeUnixNano) >= start && BigInt(s.endTimeUnixNano) <= end).toBe(true);
      expect(BigInt(s.endTimeUnixNano) > BigInt(s.startTimeUnixNano)).toBe(true);
    }
    expect(BigInt(tool.startTimeUnixNano) >= BigInt(chat1.endTimeUnixNano)).toBe(true);
    expect(Number(tool.attrs['agentdef.tool.latency_ms'])).toBe(
      Number((BigInt(tool.endTimeUnixNano) - BigInt(tool.startTimeUnixNano)) / 1_000_000n),
    );
  });

  it('the same seed and clock give the same bytes', async () => {
    const texts: string[] = [];
    for (let i = 0; i < 2; i++) {
      const sink = await telemetryTo();
      await runAgent(
        toolOnlyConfig({ receipts: RECEIPTS_OFF }),
        { text: '', data: { a: 1, b: 2 } },
        {
          tools: calcTools,
          telemetry: sink.telemetry,
          waitUntil: sink.waitUntil,
          random: seeded(7),
          now: steppingClock(),
        },
      );
      await Promise.all(sink.background);
      const [received] = await sink.receiver.waitFor(1);
      expect(checkOtlpJson('ExportTraceServiceRequest', received!.body).problems).toEqual([]);
      texts.push(received!.text);
    }
    expect(texts[1]).toBe(texts[0]);
    const spans = spansOf(JSON.parse(texts[0]!));
    expect(spans.map((s) => s.name)).toEqual(['invoke_agent adder-tool', 'execute_tool add']);
    expect(spans[0]!.attrs['agentdef.agentic_gate']).toBe('tool-only');
    expect(spans[1]!.attrs['agentdef.tool.ok']).toBe(true);
  });

  it('a run whose model and tool see a secret exports no attribute holding it', async () => {
    const provider = await startScriptedProvider({
      wire: 'openai-chat',
      apiKey: TEST_KEY,
      script: [
        // A model that names a tool after the key and then puts the key in its answer.
        {
          toolCalls: [
            { name: `leak_${TEST_KEY}`, arguments: {} },
            { name: 'add', arguments: { a: 1, b: 1 } },
          ],
        },
        { text: `Your key is ${TEST_KEY}` },
      ],
    });
    closers.push(provider);
    const sink = await telemetryTo();
    const config = agenticConfig('openai-chat', provider.baseUrl, {
      receipts: RECEIPTS_OFF,
    });
    const unused = 'mcp-token-7f3a9c2e4b1d8f6a0c5e';
    await runAgent(
      config,
      { text: 'add' },
      {
        secrets: { OPENAI_API_KEY: TEST_KEY, MCP_TOKEN: unused },
        // A tool that returns the key and fails with it.
        tools: { 'calc.add': () => ({ echoed: TEST_KEY }) },
        telemetry: sink.telemetry,
        waitUntil: sink.waitUntil,
      },
    );
    await Promise.all(sink.background);
    const [received] = await sink.receiver.waitFor(1);
    expect(checkOtlpJson('ExportTraceServiceRequest', received!.body).problems).toEqual([]);
    const spans = spansOf(received!.body);
    expect(spans.some((s) => s.name.startsWith('execute_tool leak_'))).toBe(true);
    for (const secret of [TEST_KEY, unused]) {
      for (const form of encodedForms(secret)) expect(received!.text.includes(form)).toBe(false);
      expect(holdsSecret(received!.text, secret)).toBe(false);
    }
  });

  it('a collector that refuses or is gone changes nothing about the run', async () => {
    const refused: string[] = [];
    const telemetry = createRunTelemetry({
      exporter: otlpHttpExporter({
        tracesUrl: 'http://127.0.0.1:9/v1/traces',
        fetch: () => Promise.reject(new Error('connection refused')),
      }),
      onError: (runId) => refused.push(runId),
    });
    const background: Promise<unknown>[] = [];
    const result = await runAgent(
      toolOnlyConfig({ receipts: RECEIPTS_OFF }),
      { text: '', data: { a: 1, b: 2 } },
      { tools: calcTools, telemetry, waitUntil: (p) => void background.push(p) },
    );
    expect(result.stopReason).toBe('answer');
    expect(result.answer?.data).toEqual({ sum: 3 });
    await Promise.all(background);
    expect(refused).toEqual([result.runId]);
  });
});
