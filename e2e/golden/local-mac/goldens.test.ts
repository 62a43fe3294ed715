/**
 * The checked-in golden files of the local-mac adapter match what it emits now. On drift, look
 * at the diff and, if the change is intended, run `node scripts/update-goldens.mjs local-mac`.
 */
import { describe, expect, it } from 'vitest';
import { emitExample, goldenDrift, readGoldens, renderSuite } from '../golden-suite';
import { BUNDLE, suite } from './suite';

describe('golden files of local-mac', () => {
  it('pin every file but the bundle for three examples, and match what the adapter emits (no drift)', async () => {
    const rendered = await renderSuite(suite);
    const checkedIn = readGoldens(suite.target);
    expect([...new Set([...checkedIn.keys()].map((path) => path.split('/')[0]))].sort()).toEqual(
      [...suite.examples].sort(),
    );
    for (const path of [
      'local-notes/mcp-servers.json',
      'local-notes/dev.agentdef.local-notes.plist',
      'code-search/agentdef-code-search.service',
      'pdf-extractor/launcher.json',
    ])
      expect(checkedIn.has(path), path).toBe(true);
    const drift = goldenDrift(rendered, checkedIn);
    expect(
      drift,
      `golden files differ from the adapter's output: ${drift.join(', ')}; if intended, run node scripts/update-goldens.mjs local-mac`,
    ).toEqual([]);
  });

  it('leaves out only the bundle', async () => {
    const files = await emitExample(suite.target, 'code-search');
    expect(files.map((f) => f.path).filter((p) => !suite.select(files).has(p))).toEqual([BUNDLE]);
  });
});
