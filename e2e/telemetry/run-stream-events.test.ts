/**
 * The `session-report` and `experiment` streams of `telemetryContract.telemetryKinds`: span events
 * on the run's root span, exported to a loopback OTLP/HTTP receiver. Not listed, no event; listed,
 * `agentdef.session_report` carries the run's counts, tokens, latency and outcome, and
 * `agentdef.experiment` the exact modelSet (declared order) and the definition digest with the
 * outcome, exactly those keys; the request decodes by the official OTLP definitions and holds no
 * prompt, answer or secret.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_KEY, agenticConfig, calcTools, pin } from '../../plugin/runtime/__test-support__/configs';
import { startScriptedProvider } from '../../plugin/runtime/__test-support__/stub-provider';
import { runAgent } from '../../plugin/runtime/run-agent';
import type { RuntimeConfig } from '../../plugin/runtime/runtime-config';
import { otlpHttpExporter, signalUrl } from '../../plugin/runtime/telemetry/otlp-http-exporter';
import { createRunTelemetry } from '../../plugin/runtime/telemetry/run-telemetry';
import { attributeMap, checkOtlpJson, spansOf } from '../support/otlp-validate';
import { startOtlpReceiver } from '../support/otlp-receiver';

const RECEIPTS_OFF = { mode: 'off', schemaVersion: 'receipt/v1', signerRef: null } as const;
const DIGEST = 'a'.repeat(64);
const PROMPT = 'What is 2 + 3? (prompt-marker-7Q)';
const ANSWER = 'The sum is 5. (answer-marker-3Z)';

const closers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c.close()));
});

/** One run of calc-agent (one tool call, two model calls) with the given telemetry settings; the root span. */
async function rootSpanOf(telemetry: RuntimeConfig['telemetry'], extraPins: RuntimeConfig['models'] = []) {
  const provider = await startScriptedProvider({
    wire: 'openai-chat',
    apiKey: TEST_KEY,
    script: [{ toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] }, { text: ANSWER }],
  });
  closers.push(provider);
  const receiver = await startOtlpReceiver();
  closers.push(receiver);
  const background: Promise<unknown>[] = [];
  const base = agenticConfig('openai-chat', provider.baseUrl, { receipts: RECEIPTS_OFF });
  const config: RuntimeConfig = {
    ...base,
    models: [...base.models, ...extraPins],
    ...(telemetry ? { telemetry } : {}),
  };
  const result = await runAgent(
    config,
    { text: PROMPT },
    {
      secrets: { OPENAI_API_KEY: TEST_KEY },
      tools: calcTools,
      telemetry: createRunTelemetry({
        exporter: otlpHttpExporter({ tracesUrl: signalUrl(receiver.url, 'traces'), fetch }),
      }),
      waitUntil: (p) => void background.push(p),
    },
  );
  expect(result.stopReason).toBe('answer');
  await Promise.all(background);
  const [received] = await receiver.waitFor(1);
  expect(checkOtlpJson('ExportTraceServiceRequest', received!.body).problems).toEqual([]);
  expect(received!.text.includes(TEST_KEY)).toBe(false);
  expect(received!.text.includes('prompt-marker-7Q')).toBe(false);
  expect(received!.text.includes('answer-marker-3Z')).toBe(false);
  const root = spansOf(received!.body).find((s) => s.name === 'invoke_agent calc-agent') as any;
  expect(root).toBeDefined();
  return { root, runId: result.runId };
}

function eventsOf(span: any): { name: string; timeUnixNano: string; attrs: Record<string, unknown> }[] {
  return (span.events ?? []).map((e: any) => ({
    name: e.name,
    timeUnixNano: e.timeUnixNano,
    attrs: attributeMap(e.attributes),
  }));
}

describe('telemetryKinds streams as root span events', () => {
  it('no telemetry settings: no event', async () => {
    const { root } = await rootSpanOf(undefined);
    expect(root.events).toBeUndefined();
  });

  it('kinds listing neither stream: no event', async () => {
    const { root } = await rootSpanOf({ kinds: ['events'], definitionDigest: DIGEST });
    expect(root.events).toBeUndefined();
  });

  it('session-report only: one agentdef.session_report event with exactly its keys', async () => {
    const { root, runId } = await rootSpanOf({ kinds: ['events', 'session-report'], definitionDigest: DIGEST });
    const events = eventsOf(root);
    expect(events.map((e) => e.name)).toEqual(['agentdef.session_report']);
    expect(events[0]!.timeUnixNano).toBe(root.endTimeUnixNano);
    const attrs = events[0]!.attrs;
    expect(Object.keys(attrs)).toEqual([
      'agentdef.run.id',
      'agentdef.session.steps',
      'agentdef.session.model_calls',
      'agentdef.session.tool_calls',
      'agentdef.session.input_tokens',
      'agentdef.session.output_tokens',
      'agentdef.session.latency_ms',
      'agentdef.session.outcome',
      'agentdef.session.stop_reason',
    ]);
    expect(attrs).toMatchObject({
      'agentdef.run.id': runId,
      'agentdef.session.steps': root.attrs['agentdef.run.steps'],
      'agentdef.session.model_calls': '2',
      'agentdef.session.tool_calls': '1',
      'agentdef.session.input_tokens': root.attrs['gen_ai.usage.input_tokens'],
      'agentdef.session.output_tokens': root.attrs['gen_ai.usage.output_tokens'],
      'agentdef.session.latency_ms': root.attrs['agentdef.run.latency_ms'],
      'agentdef.session.outcome': 'ok',
      'agentdef.session.stop_reason': 'answer',
    });
  });

  it('experiment: keyed on the exact modelSet in declared order and the definition digest', async () => {
    // A second pin the run never calls (no routing): the experiment keys on the declared set all the same.
    const specialist = pin('openai-chat', 'http://127.0.0.1:9', {
      role: 'specialist',
      model: 'gpt-4o-2024-08-06',
      modelVersion: '2024-08-06',
    });
    const { root, runId } = await rootSpanOf({ kinds: ['session-report', 'experiment'], definitionDigest: DIGEST }, [
      specialist,
    ]);
    const events = eventsOf(root);
    expect(events.map((e) => e.name)).toEqual(['agentdef.session_report', 'agentdef.experiment']);
    const attrs = events[1]!.attrs;
    expect(Object.keys(attrs)).toEqual([
      'agentdef.run.id',
      'agentdef.experiment.model_set',
      'agentdef.experiment.definition_digest',
      'agentdef.experiment.outcome',
      'agentdef.experiment.stop_reason',
    ]);
    expect(attrs).toEqual({
      'agentdef.run.id': runId,
      'agentdef.experiment.model_set':
        'primary:openai/gpt-4o-mini-2024-07-18@2024-07-18,specialist:openai/gpt-4o-2024-08-06@2024-08-06',
      'agentdef.experiment.definition_digest': DIGEST,
      'agentdef.experiment.outcome': 'ok',
      'agentdef.experiment.stop_reason': 'answer',
    });
    // The digest the config carries is the root span's too.
    expect(root.attrs['agentdef.definition.digest']).toBe(DIGEST);
  });
});
