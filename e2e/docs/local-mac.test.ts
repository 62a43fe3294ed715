/**
 * docs/local-mac.md, every command as written, in order (e2e/support/doc-page.ts), in a scratch
 * workspace holding the repository's examples (e2e/support/doc-workspace.ts), with no Ollama:
 * local-notes compiled for local-mac, its receipt key made, `AGENTDEF_REPLAY` exported as the page
 * says, then `agentdef run` serving it (the notes MCP server started, the models replayed), and
 * again with a SQLite task store, which it creates owner-only. Left out, with the reason the page
 * gives next to them: the service install lines (launchctl, systemctl: the login session of the
 * machine the test runs on) and the launcher on its own (it needs Ollama).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followPagePrinting, killLeftovers, type Prints } from '../support/doc-page';
import { readerWorkspace } from '../support/doc-workspace';
import type { TempWorkspace } from '../support/nx-workspace';
import { docPageTest } from './doc-pages';

const PAGE = docPageTest('e2e/docs/local-mac.test.ts');
const SERVES = /^local-notes@0\.3\.0 \(local launcher\) serves A2A at http:\/\/127\.0\.0\.1:\d+\/$/m;
const REPLAYED =
  /^ {2}models: {5}replayed from examples\/recordings\/local-notes \(\d+ recorded exchanges; no API key used\)$/m;

const PRINTS: readonly Prints[] = [
  {
    command: /^npx agentdef compile examples\/local-notes\/agent\.json/,
    prints: [/^compiled local-notes@0\.3\.0 for local-mac .*launch\.mjs/m],
  },
  { command: /^npx agentdef keys generate keyref:mia-laptop$/, prints: ['generated keyref:mia-laptop'] },
  { command: /^npx agentdef run dist\/agents\/local-notes --port \d+\s+#/, prints: [SERVES, REPLAYED] },
  { command: /^npx agentdef run dist\/agents\/local-notes --port \d+ --task-store /, prints: [SERVES, REPLAYED] },
];

describe('docs/local-mac.md, every command as written in a scratch workspace', () => {
  let ws: TempWorkspace;

  beforeAll(() => {
    ws = readerWorkspace('local-mac', { examples: true });
  });

  afterAll(() => killLeftovers());

  it('compiles local-notes and runs its launcher, with and without a task store, its models replayed', async () => {
    const results = await followPagePrinting(PAGE, ws, PRINTS);
    expect(results.filter((r) => r.skipped !== undefined).length).toBe(5);
    // The task store the page names, created owner-only in its folder.
    const store = statSync(join(ws.home, '.local/state/agentdef/local-notes/tasks.sqlite'));
    expect(store.mode & 0o777).toBe(0o600);
  });
});
