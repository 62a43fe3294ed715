/**
 * docs/running-and-calling.md, every command as written, in order (e2e/support/doc-page.ts), in a
 * scratch workspace holding the repository's examples (e2e/support/doc-workspace.ts): text-digest
 * compiled, its receipt key made and its public JWK exported, the Worker served with
 * `agentdef dev` (workerd via miniflare) through the rest of the page; asked with `agentdef ask
 * --key` (the receipt verified), read and called with curl (the card's JSON-RPC URL, SendMessage,
 * SendStreamingMessage); then text-stats served with `--watch`, by dev and through Nx. Each must
 * print what the page shows: dev's banner, ask's lines, the stream's events (`…` standing for
 * what varies).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followPagePrinting, killLeftovers, type Prints, shownBlock } from '../support/doc-page';
import { readerWorkspace } from '../support/doc-workspace';
import type { TempWorkspace } from '../support/nx-workspace';
import { docPageTest } from './doc-pages';

const PAGE = docPageTest('e2e/docs/running-and-calling.test.ts');

const PRINTS: readonly Prints[] = [
  {
    command: /^npx agentdef compile examples\/text-digest\/agent\.json/,
    prints: [/^compiled text-digest@1\.0\.0 for cloudflare-dynamic-worker /m],
  },
  { command: /^npx agentdef keys generate keyref:acme-receipts$/, prints: ['generated keyref:acme-receipts'] },
  {
    command: /^AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY=.* npx agentdef dev dist\/agents\/text-digest/,
    shows: shownBlock(PAGE.path, 'text-digest@1.0.0 (Cloudflare Worker'),
  },
  {
    command: /^npx agentdef ask .* --key receipt-key\.public\.jwk$/,
    shows: shownBlock(PAGE.path, '{"keywords":[{"word":"isolates","count":2}'),
  },
  { command: /^curl -s \S+\/\.well-known\/agent-card\.json \| jq/, prints: [/^http:\/\/127\.0\.0\.1:\d+\/$/m] },
  {
    command: /^curl -s \S+ -H 'Content-Type: application\/json' -H 'A2A-Version: 1\.0'/,
    prints: ['"state":"TASK_STATE_COMPLETED"', '\\"words\\":4', '"skill":"text.digest"', '"receipt":{'],
  },
  { command: /^curl -sN /, shows: shownBlock(PAGE.path, 'data: {"jsonrpc":"2.0","id":1,"result":{"task":') },
  {
    command: /^npx agentdef dev dist\/agents\/text-stats --port \d+ --watch/,
    prints: [/^watching \d+ files /m, /^text-stats@1\.0\.0 .* serves A2A at /m],
  },
  {
    command: /^npx nx run text-stats:serve --port=\d+ --watch/,
    prints: [/^watching \d+ files /m, /^text-stats@1\.0\.0 .* serves A2A at /m],
  },
];

describe('docs/running-and-calling.md, every command as written in a scratch workspace', () => {
  let ws: TempWorkspace;

  beforeAll(() => {
    ws = readerWorkspace('running-and-calling', { examples: true });
  });

  afterAll(() => killLeftovers());

  it('serves text-digest through the whole page, asks it, calls it with curl, then serves text-stats with --watch, each printing what the page shows', async () => {
    const results = await followPagePrinting(PAGE, ws, PRINTS);
    expect(results.filter((r) => r.skipped !== undefined)).toEqual([]);
    // The Worker served across the sections: it answered the ask and both curl calls before it stopped.
    const workerStopped = results.findIndex((r) => r.command.includes('npx agentdef dev dist/agents/text-digest'));
    expect(workerStopped).toBeGreaterThan(results.findIndex((r) => r.command.startsWith('curl -sN')));
  });
});
