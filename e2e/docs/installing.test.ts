/**
 * docs/installing.md, every command as written (e2e/support/doc-page.ts). `npm run pack` is the
 * one the test run's global setup ran (e2e/support/global-setup.ts, the same script, once for
 * every test file): what it printed must be what the page shows, the tarball path aside. The
 * install is that tarball unpacked into a fresh Nx workspace as npm lays it out
 * (e2e/support/doc-workspace.ts), then `npx nx g agentdef:init` runs as written and registers the
 * plugin, through npm's own npx (the other page tests use the local-bin npx of doc-workspace.ts). Left out, with the reason the page gives next to them: `npm ci` and `npm install` (the
 * npm registry), and `npm run pack` itself (checked from the global setup's run, not run twice).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { followPagePrinting, killLeftovers, missingShownLine, type Prints, shownBlock } from '../support/doc-page';
import { readerWorkspace } from '../support/doc-workspace';
import type { TempWorkspace } from '../support/nx-workspace';
import { docPageTest } from './doc-pages';

const PAGE = docPageTest('e2e/docs/installing.test.ts');
const PLACEHOLDER = '/path/to/agentdef/dist/pack/agentdef-0.1.0.tgz';

const PAGE_TEXT = readFileSync(join(__dirname, '..', '..', 'docs', 'installing.md'), 'utf8');

const PRINTS: readonly Prints[] = [{ command: /^npx nx g agentdef:init$/, prints: ['UPDATE nx.json'] }];

describe('docs/installing.md, every command as written', () => {
  let ws: TempWorkspace;

  beforeAll(() => {
    ws = readerWorkspace('installing', { npx: 'npm' });
  });

  afterAll(() => killLeftovers());

  it('npm run pack prints what the page shows: the tarball and the line that installs it', () => {
    const packed = inject('agentdefPackRun');
    expect(packed.status, packed.stderr).toBe(0);
    const shown = shownBlock(PAGE.path, 'packed ');
    expect(shown).toContain(PLACEHOLDER);
    expect(missingShownLine(packed.stdout, shown.split(PLACEHOLDER).join(packed.tarball))).toBeUndefined();
    // The page's install line is the one printed, with the tarball's path.
    expect(packed.stdout).toContain(`  npm install -D ${packed.tarball}\n`);
  });

  it('after the install, npx nx g agentdef:init registers the plugin', async () => {
    const results = await followPagePrinting(PAGE, ws, PRINTS);
    expect(results.filter((r) => r.skipped !== undefined).length).toBe(3);
    const nx = JSON.parse(readFileSync(join(ws.dir, 'nx.json'), 'utf8')) as { plugins?: unknown[] };
    expect(JSON.stringify(nx.plugins)).toContain('"agentdef"');
  });

  it('npx nx g agentdef:init --operationalTargets=false, as the page names it, registers the plugin without the operational targets', () => {
    expect(PAGE_TEXT).toContain('`nx g agentdef:init --operationalTargets=false`');
    // init leaves an existing registration as it is: start from none, as a new workspace does.
    const nxJsonPath = join(ws.dir, 'nx.json');
    const nx = JSON.parse(readFileSync(nxJsonPath, 'utf8')) as { plugins?: unknown[] };
    writeFileSync(nxJsonPath, `${JSON.stringify({ ...nx, plugins: [] }, null, 2)}\n`);
    const result = ws.nx(['g', 'agentdef:init', '--operationalTargets=false']);
    expect(result.status, result.stderr).toBe(0);
    const after = JSON.parse(readFileSync(nxJsonPath, 'utf8')) as { plugins?: { plugin?: string; options?: object }[] };
    const registration = after.plugins?.find((p) => p.plugin === 'agentdef');
    expect(registration).toBeDefined();
    expect(registration?.options ?? {}).not.toHaveProperty('operationalTargets');
  });
});
