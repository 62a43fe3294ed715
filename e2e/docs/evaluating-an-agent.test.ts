/**
 * docs/evaluating-an-agent.md, every command as written, in order (e2e/support/doc-page.ts), in a
 * scratch workspace holding the repository's examples (e2e/support/doc-workspace.ts), with no API
 * key and no model server: the receipt key made, support-triage scored by `agentdef eval` on its
 * recorded models and grader (the table, every case passing, every invariant scored, the three
 * files written), then the signed eval receipt verified.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followPagePrinting, killLeftovers, type Prints } from '../support/doc-page';
import { readerWorkspace } from '../support/doc-workspace';
import type { TempWorkspace } from '../support/nx-workspace';
import { docPageTest } from './doc-pages';

const PAGE = docPageTest('e2e/docs/evaluating-an-agent.test.ts');

const PRINTS: readonly Prints[] = [
  { command: /^npx agentdef keys generate keyref:acme-agents$/, prints: ['generated keyref:acme-agents'] },
  {
    command: /^npx agentdef eval examples\/support-triage$/,
    prints: [
      /^billing-charged-twice +ends-with-next-step +pass /m,
      /^ +\d+-invariant +pass /m,
      /^ +polite-and-actionable +pass /m,
      /^\d+ of \d+ cases passed \(pass rate 1\.00, threshold 1\.00\): PASSED$/m,
      /^every invariant is scored by at least one case$/m,
    ],
  },
  { command: /^npx agentdef verify dist\/eval\/support-triage\/eval\.receipt\.json$/, prints: [/verified/] },
];

describe('docs/evaluating-an-agent.md, every command as written in a scratch workspace', () => {
  let ws: TempWorkspace;

  beforeAll(() => {
    ws = readerWorkspace('evaluating-an-agent', { examples: true });
  });

  afterAll(() => killLeftovers());

  it('scores support-triage on its recorded models and grader and verifies the signed eval receipt', async () => {
    const results = await followPagePrinting(PAGE, ws, PRINTS);
    expect(results.filter((r) => r.skipped !== undefined)).toEqual([]);
    for (const file of ['eval.json', 'junit.xml', 'eval.receipt.json'])
      expect(existsSync(join(ws.dir, 'dist', 'eval', 'support-triage', file)), file).toBe(true);
    expect(Object.keys(ws.env).filter((name) => /API_KEY|^AGENTDEF_SECRET_/.test(name))).toEqual([]);
  });
});
