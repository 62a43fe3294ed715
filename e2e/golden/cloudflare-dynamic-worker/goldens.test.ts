/**
 * The checked-in golden files of the Worker adapter match what it emits now. On drift, look at
 * the diff and, if the change is intended, run `node scripts/update-goldens.mjs`.
 */
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../plugin/compiler/canonical-json';
import { emitExample, goldenDrift, readGoldens, renderSuite } from '../golden-suite';
import { CODE_MARKER, DIGEST_MARKER, normalisedHostPlan, suite } from './suite';

describe('golden files of cloudflare-dynamic-worker', () => {
  it('pin src/ and host-plan.json of four examples, and match what the adapter emits (no drift)', async () => {
    const rendered = await renderSuite(suite);
    const checkedIn = readGoldens(suite.target);
    expect([...new Set([...checkedIn.keys()].map((path) => path.split('/')[0]))].sort()).toEqual(
      [...suite.examples].sort(),
    );
    expect(checkedIn.has('text-digest/src/isolates/1-text-classify.ts')).toBe(true);
    expect(checkedIn.has('web-summarizer/host-plan.json')).toBe(true);
    // The hybrid leaf's module names the runner of its route and evaluation among its parts.
    expect(checkedIn.get('support-triage/src/agents/0-support-triage.ts')).toMatch(/\bhybridLeaf: runHybridLeaf\b/);
    const drift = goldenDrift(rendered, checkedIn);
    expect(
      drift,
      `golden files differ from the adapter's output: ${drift.join(', ')}; if intended, run node scripts/update-goldens.mjs`,
    ).toEqual([]);
  });

  it('normalises only the bundled code and its digests in host-plan.json', async () => {
    const files = await emitExample(suite.target, 'text-digest');
    const raw = files.find((f) => f.path === 'host-plan.json')!.contents;
    const worker = files.find((f) => f.path === 'worker.js')!.contents;
    const plan = JSON.parse(raw) as { id: string; workerCode: { modules: Record<string, string> } };
    expect(plan.workerCode.modules['worker.js']).toBe(worker);
    expect(plan.id.endsWith(`:${sha256Hex(worker).slice(0, 16)}`)).toBe(true);
    const normalised = normalisedHostPlan(raw);
    expect(normalised).toContain(CODE_MARKER);
    expect(normalised).toContain(DIGEST_MARKER);
    expect(normalised).not.toContain(sha256Hex(worker).slice(0, 16));
    // Everything else is kept as is.
    const strip = (text: string) => {
      const value = JSON.parse(text) as {
        id: string;
        workerCode: { modules: unknown };
        isolates: { codeDigest?: string }[];
      };
      value.workerCode.modules = {};
      value.id = value.id.split(':').slice(0, 2).join(':');
      for (const isolate of value.isolates) delete isolate.codeDigest;
      return value;
    };
    expect(strip(normalised)).toEqual(strip(raw));
  });
});
