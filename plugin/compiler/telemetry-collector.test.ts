/**
 * `telemetryContract.collector`: a closed origin format (https, http only for loopback) refused
 * with a located diagnostic, which the compiler puts on the runtime config's egress allow-list and
 * into its `telemetry` settings, beside the streams `telemetryKinds` asks for and the definition's
 * digest. A definition that asks for neither stream and names no collector gets no `telemetry`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateDefinitionSource } from '../definition/validate-definition';
import { runtimeConfigFor } from './runtime-config';
import { agent, tree } from './test-support';
import { EMPTY_WORKSPACE_CONFIG } from './workspace-config';

const EXAMPLE = join(__dirname, '..', '..', 'examples', 'fallback-writer', 'agent.json');

function withCollector(collector: string): string {
  const definition = JSON.parse(readFileSync(EXAMPLE, 'utf8'));
  definition.telemetryContract.collector = collector;
  return `${JSON.stringify(definition, null, 2)}\n`;
}

describe('telemetryContract.collector', () => {
  it.each([
    'https://otel.example.com',
    'https://otel.example.com:4318',
    'http://127.0.0.1:4318',
    'http://localhost:4318',
    'http://[::1]:4318',
  ])('accepts the origin %s', (collector) => {
    const result = validateDefinitionSource(withCollector(collector), 'agent.json', 'json');
    expect(result.diagnostics.filter((d) => d.path.startsWith('/telemetryContract'))).toEqual([]);
  });

  it.each([
    'http://otel.example.com',
    'https://otel.example.com/v1/traces',
    'https://otel.example.com/',
    'https://user:secret@otel.example.com',
    'https://OTEL.example.com',
    'https://otel.example.com?token=abc',
    'ftp://otel.example.com',
  ])('refuses %s with a located diagnostic', (collector) => {
    const text = withCollector(collector);
    const result = validateDefinitionSource(text, 'agent.json', 'json');
    expect(result.valid).toBe(false);
    const found = result.diagnostics.find((d) => d.path === '/telemetryContract/collector');
    expect(found).toMatchObject({ file: 'agent.json', severity: 'error' });
    expect(found!.message).toContain('collector origin');
    const line = text.split('\n').findIndex((l) => l.includes('"collector"')) + 1;
    expect(found!.line).toBe(line);
  });

  it('never repeats the credentials of a refused collector URL', () => {
    const result = validateDefinitionSource(
      withCollector('https://otel:pw-9fK2xQ7rL4@otel.example.com'),
      'agent.json',
      'json',
    );
    expect(result.diagnostics.map((d) => d.path)).toContain('/telemetryContract/collector');
    expect(JSON.stringify(result.diagnostics)).not.toContain('pw-9fK2xQ7rL4');
  });

  it('joins the egress allow-list and the runtime telemetry settings', () => {
    const d = agent('writer', '1.0.0');
    d.telemetryContract.collector = 'https://otel.example.com';
    d.telemetryContract.telemetryKinds = ['events'];
    const node = tree(d);
    const { config, diagnostics } = runtimeConfigFor(node, 'writer@1.0.0', { workspace: EMPTY_WORKSPACE_CONFIG });
    expect(diagnostics).toEqual([]);
    expect(config.egress.allow).toEqual(['https://otel.example.com']);
    expect(config.telemetry).toEqual({
      kinds: ['events'],
      definitionDigest: node.digest,
      collector: 'https://otel.example.com',
    });
  });

  it('carries the streams and the digest without a collector; nothing when neither is asked for', () => {
    const d = agent('writer', '1.0.0');
    d.telemetryContract.telemetryKinds = ['events', 'experiment'];
    const node = tree(d);
    const streams = runtimeConfigFor(node, 'writer@1.0.0', { workspace: EMPTY_WORKSPACE_CONFIG }).config;
    expect(streams.egress.allow).toEqual([]);
    expect(streams.telemetry).toEqual({ kinds: ['events', 'experiment'], definitionDigest: node.digest });
    expect(node.digest).toMatch(/^[0-9a-f]{64}$/);

    d.telemetryContract.telemetryKinds = ['events'];
    const plain = runtimeConfigFor(tree(d), 'writer@1.0.0', { workspace: EMPTY_WORKSPACE_CONFIG }).config;
    expect(plain.telemetry).toBeUndefined();
  });
});
