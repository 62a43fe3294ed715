/**
 * docs/composing-an-application.md, every command as written, in order (e2e/support/doc-page.ts),
 * in a scratch workspace holding the repository's examples (e2e/support/doc-workspace.ts), offline
 * as the page says: the catalog, release-brief's digest sealed and checked, planned, executed dry
 * run under an idempotency key, the MCP server with a SQLite ledger (stdin closed: it starts and
 * ends), the text-pack application through its component host, an application scaffolded with
 * `nx g agentdef:application`, and the local verification by the CLI and through Nx. Each must
 * print what the page says it does.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followPagePrinting, killLeftovers, type Prints } from '../support/doc-page';
import { readerWorkspace } from '../support/doc-workspace';
import type { TempWorkspace } from '../support/nx-workspace';
import { docPageTest } from './doc-pages';

const PAGE = docPageTest('e2e/docs/composing-an-application.test.ts');
const MANIFEST = 'examples/applications/release-brief/application.json';

const PRINTS: readonly Prints[] = [
  {
    command: /^npx agentdef application catalog --artifacts /,
    prints: [
      /^catalog digest\s+[0-9a-f]{64}$/m,
      /^adapter-policy digest\s+[0-9a-f]{64}$/m,
      'agentdef.approved-artifact@1.0.0',
    ],
  },
  { command: /^npx agentdef application digest \S+$/, prints: [`${MANIFEST}: source.sha256 `, 'is up to date'] },
  { command: /^npx agentdef application digest \S+ --check/, prints: ['is up to date'] },
  {
    command: /^npx agentdef application plan \S+ --artifacts /,
    prints: ['release-brief@1.0.0: plan (dry-run)', /^ {2}plan digest\s+[0-9a-f]{64}$/m],
  },
  {
    command: /^npx agentdef application execute examples\/applications\/release-brief\/.* --key release-brief-1$/,
    prints: [
      'release-brief@1.0.0: succeeded (dry-run)',
      /^ {2}idempotency key\s+release-brief-1$/m,
      '"dispatched":false',
    ],
  },
  {
    command: /^npx agentdef mcp --artifacts \S+ --ledger \.agentdef\/ledger\.sqlite$/,
    prints: ['agentdef mcp: serving the application tools over stdio (execution ledger: SQLite)'],
  },
  {
    command: /^npx agentdef application execute examples\/applications\/text-pack\//,
    prints: ['text-summary@1.0.0: succeeded (dry-run)', /^ {4}wordCount: \{"words":\d+\}$/m],
  },
  {
    command: /^npx nx g agentdef:application digest-brief --agents=text-digest@1\.0\.0$/,
    prints: ['CREATE digest-brief/application.json'],
  },
  { command: /^npx agentdef application check /, prints: [/^15 checks passed$/m] },
  {
    command: /^npx nx run release-brief:check$/,
    prints: [/^15 checks passed$/m, 'Successfully ran target check for project release-brief'],
  },
];

describe('docs/composing-an-application.md, every command as written in a scratch workspace', () => {
  let ws: TempWorkspace;

  beforeAll(() => {
    ws = readerWorkspace('composing-an-application', { examples: true });
  });

  afterAll(() => killLeftovers());

  it('runs every command in order, offline, each printing what the page says', async () => {
    const before = readFileSync(join(ws.dir, MANIFEST), 'utf8');
    const results = await followPagePrinting(PAGE, ws, PRINTS);
    expect(results.filter((r) => r.skipped !== undefined)).toEqual([]);
    // The sealed example stays byte for byte; the ledger the page names is on disk; nothing was dispatched.
    expect(readFileSync(join(ws.dir, MANIFEST), 'utf8')).toBe(before);
    expect(existsSync(join(ws.dir, '.agentdef', 'ledger.sqlite'))).toBe(true);
    expect(existsSync(join(ws.dir, 'examples', 'applications', 'approved-artifacts', 'outbox'))).toBe(false);
  });
});
