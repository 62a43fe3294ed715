/**
 * The OTLP/JSON check itself (e2e/support/otlp-validate.ts) refuses what the official definitions
 * and the JSON mapping refuse: a member no message has, base64 instead of hex ids, an all-zero id,
 * a number where a 64-bit decimal string belongs, an enum by name, a value of the wrong type.
 */
import { describe, expect, it } from 'vitest';
import { checkOtlpJson } from '../support/otlp-validate';

function request(span: Record<string, unknown>) {
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'a' } }] },
        scopeSpans: [{ scope: { name: 'agentdef', version: '1.0.0' }, spans: [span] }],
      },
    ],
  };
}

const SPAN = {
  traceId: '5b8efff798038103d269b633813fc60c',
  spanId: 'eee19b7ec3c1b174',
  name: 'chat m',
  kind: 3,
  startTimeUnixNano: '1544712660000000000',
  endTimeUnixNano: '1544712661000000000',
  attributes: [{ key: 'gen_ai.usage.input_tokens', value: { intValue: '12' } }],
  status: { code: 1 },
};

describe('the OTLP/JSON check', () => {
  it('accepts a span as the OTLP JSON mapping writes it', () => {
    const check = checkOtlpJson('ExportTraceServiceRequest', request(SPAN));
    expect(check.problems).toEqual([]);
    expect(JSON.stringify(check.decoded)).toContain('chat m');
  });

  it.each([
    ['an unknown member', { ...SPAN, traceID: SPAN.traceId }, 'has no field traceID'],
    ['a base64 trace id', { ...SPAN, traceId: 'W47/95gDgQPSabYzgT/GDA==' }, 'lowercase hex'],
    ['an all-zero span id', { ...SPAN, spanId: '0000000000000000' }, 'lowercase hex'],
    ['nanoseconds as a number', { ...SPAN, startTimeUnixNano: 1544712660000 }, 'decimal string'],
    ['a kind by name', { ...SPAN, kind: 'SPAN_KIND_CLIENT' }, 'is not a value of SpanKind'],
    ['a name that is not a string', { ...SPAN, name: 7 }, 'string expected'],
  ])('refuses %s', (_what, span, problem) => {
    const check = checkOtlpJson('ExportTraceServiceRequest', request(span));
    expect(check.problems.join('\n')).toContain(problem);
  });
});
