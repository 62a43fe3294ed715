/**
 * The checked-in golden files of the Kubernetes adapter match what it emits now. On drift, look at
 * the diff and, if the change is intended, run `node scripts/update-goldens.mjs kubernetes`.
 */
import { describe, expect, it } from 'vitest';
import { emitExample, goldenDrift, readGoldens, renderSuite } from '../golden-suite';
import { BUNDLE, suite } from './suite';

describe('golden files of kubernetes', () => {
  it('pin every file but the bundle for three examples, and match what the adapter emits (no drift)', async () => {
    const rendered = await renderSuite(suite);
    const checkedIn = readGoldens(suite.target);
    expect([...new Set([...checkedIn.keys()].map((path) => path.split('/')[0]))].sort()).toEqual(
      [...suite.examples].sort(),
    );
    for (const path of [
      'write-router/kubernetes/deployment.yaml',
      'write-router/kubernetes/steps/write-router-01-splice-resolver-0-4-2.yaml',
      'write-router/kubernetes/kustomization.yaml',
      'write-router/hb3-workflow.json',
      'splice-resolver/kubernetes/job.yaml',
      'pdf-extractor/kubernetes/network-policy.yaml',
      'pdf-extractor/image/Dockerfile',
    ])
      expect(checkedIn.has(path), path).toBe(true);
    const drift = goldenDrift(rendered, checkedIn);
    expect(
      drift,
      `golden files differ from the adapter's output: ${drift.join(', ')}; if intended, run node scripts/update-goldens.mjs kubernetes`,
    ).toEqual([]);
  });

  it('leaves out only the bundle', async () => {
    const files = await emitExample(suite.target, 'pdf-extractor');
    expect(files.map((f) => f.path).filter((p) => !suite.select(files).has(p))).toEqual([BUNDLE]);
  });
});
