/**
 * Where a Node host sends its spans, read from the standard OpenTelemetry environment: the traces
 * endpoint as is, the base endpoint with `/v1/traces`, headers percent-decoded, a problem that
 * names the variable and never its value, and the JSON-lines file beside the receipts otherwise.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonLinesExporter, parseOtlpHeaders, telemetryTarget } from './telemetry-export';

const where = { receiptsFile: '/state/agent/receipts.jsonl' };

describe('telemetryTarget', () => {
  it('appends /v1/traces to the base endpoint and keeps its path', () => {
    expect(telemetryTarget({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/otlp/' }, where)).toEqual({
      kind: 'otlp-http',
      tracesUrl: 'http://127.0.0.1:4318/otlp/v1/traces',
      origin: 'http://127.0.0.1:4318',
      headers: {},
    });
  });

  it('uses the traces endpoint as is, before the base one, with the traces headers', () => {
    const target = telemetryTarget(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a.example:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://b.example/custom',
        OTEL_EXPORTER_OTLP_HEADERS: 'x-other=1',
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'Authorization=Bearer%20t0k3n,x-tenant=acme',
      },
      where,
    );
    expect(target).toEqual({
      kind: 'otlp-http',
      tracesUrl: 'https://b.example/custom',
      origin: 'https://b.example',
      headers: { authorization: 'Bearer t0k3n', 'x-tenant': 'acme' },
    });
  });

  it.each([
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url s3cr3t' }, 'OTEL_EXPORTER_OTLP_ENDPOINT is not a URL'],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'ftp://x.example/s3cr3t' }, 'must be an http(s) URL'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://user:s3cr3t@x.example' }, 'carries credentials'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://x.example', OTEL_EXPORTER_OTLP_HEADERS: 's3cr3t' }, 'key=value pairs'],
  ])('refuses %j naming the variable, never its value', (env, problem) => {
    const target = telemetryTarget(env, where);
    expect('problem' in target && target.problem).toContain(problem);
    expect(JSON.stringify(target)).not.toContain('s3cr3t');
  });

  it('without an endpoint in the environment: the collector the definition names, with the headers', () => {
    const named = { ...where, collector: 'https://otel.example.com' };
    expect(telemetryTarget({ OTEL_EXPORTER_OTLP_HEADERS: 'x-tenant=acme' }, named)).toEqual({
      kind: 'otlp-http',
      tracesUrl: 'https://otel.example.com/v1/traces',
      origin: 'https://otel.example.com',
      headers: { 'x-tenant': 'acme' },
    });
    // The environment comes first.
    expect(telemetryTarget({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }, named)).toMatchObject({
      tracesUrl: 'http://127.0.0.1:4318/v1/traces',
    });
    expect(telemetryTarget({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://b.example/t' }, named)).toMatchObject({
      tracesUrl: 'https://b.example/t',
    });
  });

  it('without an endpoint: telemetry.jsonl beside the receipts, or AGENTDEF_TELEMETRY_FILE', () => {
    expect(telemetryTarget({}, where)).toEqual({ kind: 'file', path: '/state/agent/telemetry.jsonl' });
    expect(telemetryTarget({ AGENTDEF_TELEMETRY_FILE: '/elsewhere/t.jsonl' }, where)).toEqual({
      kind: 'file',
      path: '/elsewhere/t.jsonl',
    });
  });

  it('parses no headers as none, and a pair without a name as malformed', () => {
    expect(parseOtlpHeaders(undefined)).toEqual({});
    expect(parseOtlpHeaders('=x')).toBeUndefined();
  });
});

describe('jsonLinesExporter', () => {
  it('appends one document per line, in order, making the folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentdef-telemetry-file-'));
    try {
      const path = join(dir, 'nested', 'telemetry.jsonl');
      const exporter = jsonLinesExporter(path);
      await Promise.all(
        [1, 2, 3].map((n) => exporter.export({ kind: 'traces', body: { resourceSpans: [], n } as never })),
      );
      const lines = readFileSync(path, 'utf8').split('\n');
      expect(lines.slice(0, -1).map((l) => JSON.parse(l).n)).toEqual([1, 2, 3]);
      expect(lines.at(-1)).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
