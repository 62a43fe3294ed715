/**
 * docs/benchmarking-a-tool.md, every command as written, in order (e2e/support/doc-page.ts), in a
 * scratch workspace holding the repository's examples (e2e/support/doc-workspace.ts): the key
 * made, text-stats benchmarked by `agentdef bench-tool --runs 2` (the table the page shows, the
 * signed events written, one per tool call), then promoted to tool-shipped on those events (the
 * gate is mandatory: no option asks for it).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followPagePrinting, killLeftovers, type Prints, shownBlock } from '../support/doc-page';
import { readerWorkspace } from '../support/doc-workspace';
import type { TempWorkspace } from '../support/nx-workspace';
import { docPageTest } from './doc-pages';

const PAGE = docPageTest('e2e/docs/benchmarking-a-tool.test.ts');

const PRINTS: readonly Prints[] = [
  { command: /^npx agentdef keys generate keyref:acme-receipts$/, prints: ['generated keyref:acme-receipts'] },
  {
    command: /^npx agentdef bench-tool examples\/text-stats --runs 2$/,
    shows: shownBlock(PAGE.path, 'tool                      operation'),
  },
  {
    command: /^npx agentdef promote examples\/text-stats\/agent\.json --to tool-shipped$/,
    prints: ['examples/text-stats/agent.json: promotion tool-prototype -> tool-shipped'],
  },
];

describe('docs/benchmarking-a-tool.md, every command as written in a scratch workspace', () => {
  let ws: TempWorkspace;

  beforeAll(() => {
    ws = readerWorkspace('benchmarking-a-tool', { examples: true });
  });

  afterAll(() => killLeftovers());

  it('benchmarks text-stats, writes its signed events and ships it on them', async () => {
    const results = await followPagePrinting(PAGE, ws, PRINTS);
    expect(results.filter((r) => r.skipped !== undefined)).toEqual([]);
    const batch = JSON.parse(
      readFileSync(join(ws.dir, 'dist', 'bench', 'text-stats', 'tool-benchmark-events.json'), 'utf8'),
    );
    expect(batch).toMatchObject({ eventsVersion: 'tool-benchmark-events/v1', runsPerCase: 2 });
    expect(batch.events).toHaveLength(8);
    const definition = JSON.parse(readFileSync(join(ws.dir, 'examples', 'text-stats', 'agent.json'), 'utf8'));
    expect(definition.lifecycleState).toBe('tool-shipped');
  });
});
