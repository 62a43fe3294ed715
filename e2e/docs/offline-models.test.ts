/**
 * docs/offline-models.md, every command as written, in order (e2e/support/doc-page.ts), in a
 * scratch workspace holding the repository's examples (e2e/support/doc-workspace.ts), with no API
 * key and no model server: fallback-writer compiled for HB3, its receipt key made, served with
 * `--replay examples/recordings/fallback-writer` and asked. dev must print the banner the page
 * shows (the models replayed, no API key used), and ask the line the page says it ends with.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followPagePrinting, killLeftovers, type Prints, shownBlock } from '../support/doc-page';
import { readerWorkspace } from '../support/doc-workspace';
import type { TempWorkspace } from '../support/nx-workspace';
import { docPageTest } from './doc-pages';

const PAGE = docPageTest('e2e/docs/offline-models.test.ts');

const PRINTS: readonly Prints[] = [
  {
    command: /^npx agentdef compile examples\/fallback-writer\/agent\.json --target hb3/,
    prints: [/^compiled fallback-writer@1\.1\.0 for hb3 /m],
  },
  { command: /^npx agentdef keys generate keyref:acme-agents$/, prints: ['generated keyref:acme-agents'] },
  {
    command: /^npx agentdef dev dist\/hb3\/fallback-writer /,
    shows: shownBlock(PAGE.path, 'fallback-writer@1.1.0 (HB3 Service) serves A2A'),
  },
  {
    command: /^npx agentdef ask /,
    prints: [
      '+if (raw === undefined)',
      /^state: completed$/m,
      /^receipt: verified \(kid \S+, key keyref:acme-agents from this machine's key store\)$/m,
      /^models: replayed from a recording, not a live model \(the receipt says so\)$/m,
    ],
  },
];

describe('docs/offline-models.md, every command as written in a scratch workspace', () => {
  let ws: TempWorkspace;

  beforeAll(() => {
    ws = readerWorkspace('offline-models', { examples: true });
  });

  afterAll(() => killLeftovers());

  it('serves fallback-writer from its recording with no API key and asks it, printing what the page shows', async () => {
    const results = await followPagePrinting(PAGE, ws, PRINTS);
    expect(results.filter((r) => r.skipped !== undefined)).toEqual([]);
    expect(Object.keys(ws.env).filter((name) => /API_KEY|^AGENTDEF_SECRET_/.test(name))).toEqual([]);
  });
});
