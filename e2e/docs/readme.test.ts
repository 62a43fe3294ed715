/**
 * README.md, the sections that use the agentdef checkout ("Quick start", "Using the CLI",
 * "Running, calling and deploying", "Composing applications", "Publishing and verifying"), every
 * command as written, in order (e2e/support/doc-page.ts), in one scratch workspace holding the
 * repository's examples as the checkout does (e2e/support/doc-workspace.ts): validate, plan,
 * compile; serve a Worker, an HB3 job and a local launcher (their models replayed from
 * examples/recordings), ask each, dry-run deploy each, and the same through Nx; the application
 * commands and the MCP server; a key, a tool benchmark, a promotion, a publication, its exports verified, a diff and
 * an imported card. Each must exit as the page says and print what the README says it does. Left
 * out, with the reason the README gives next to them: Quick start's `npm ci` (the registry) and
 * `npm test` (this suite). The Nx walk-through section is readme-walkthrough.test.ts's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followPagePrinting, killLeftovers, type Prints } from '../support/doc-page';
import { readerWorkspace } from '../support/doc-workspace';
import type { TempWorkspace } from '../support/nx-workspace';
import { docPageTest } from './doc-pages';

const PAGE = docPageTest('e2e/docs/readme.test.ts');
const COMPLETED = /^state: completed$/m;
const REPLAYED = /^models: replayed from a recording, not a live model \(the receipt says so\)$/m;

const PRINTS: readonly Prints[] = [
  {
    command: /^npx agentdef validate examples\s/,
    prints: [/^\d+ definitions and \d+ application manifests checked: \d+ valid, 0 invalid/m],
  },
  {
    command: /^npx agentdef validate examples\/pdf-extractor\/agent\.yaml --format json/,
    prints: [/"valid": true/, /"diagnostics": \[\]/],
  },
  {
    command: /^npx agentdef plan examples\/write-router\/agent\.json/,
    prints: [/^plan compile-plan\/v1 for write-router@1\.4\.0$/m, /target hb3/],
  },
  {
    command: /^npx agentdef compile examples\/write-router\/agent\.json --target hb3/,
    prints: [/^compiled write-router@1\.4\.0 for hb3 .* into dist\/agents\/write-router: /m],
  },
  {
    command: /^npx agentdef compile --help/,
    prints: [
      /^usage: agentdef compile <file> /m,
      /^ {2}--target auto\|cloudflare-dynamic-worker\|hb3\|kubernetes\|local-mac$/m,
      /^exit codes:$/m,
    ],
  },
  { command: /^npx nx run-many -t compile --batch/, prints: [/Successfully ran target compile for \d+ projects/] },
  { command: /^npx agentdef keys generate keyref:dev-receipts/, prints: ['generated keyref:dev-receipts'] },
  {
    command: /^npx agentdef dev dist\/agents\/text-digest/,
    prints: [/^text-digest@1\.0\.0 \(Cloudflare Worker: .*\) serves A2A at http:\/\/127\.0\.0\.1:\d+\/$/m],
  },
  { command: /^npx agentdef ask .* 'Workers run agents/, prints: [/"words":15/, COMPLETED, /^receipt: /m] },
  {
    command: /^npx agentdef deploy dist\/agents\/text-digest --dry-run/,
    prints: [
      'dry run: nothing was uploaded',
      'secrets the Worker needs (names only; set each once): AGENTDEF_RECEIPT_KEY',
    ],
  },
  {
    command: /^npx agentdef dev dist\/hb3\/fallback-writer/,
    prints: ['  models:     replayed from examples/recordings/fallback-writer (1 recorded exchange; no API key used)'],
  },
  { command: /^npx agentdef ask .*parseConfig/, prints: ['+if (raw === undefined)', COMPLETED, REPLAYED] },
  {
    command: /^npx agentdef deploy dist\/hb3\/fallback-writer --dry-run/,
    prints: [/^ {2}docker build -t agentdef\/fallback-writer:1\.1\.0-/m, 'dry run: nothing was built or pushed'],
  },
  {
    command: /^npx agentdef dev dist\/agents\/local-notes/,
    prints: [
      /^ {2}models: {5}replayed from examples\/recordings\/local-notes \(\d+ recorded exchanges; no API key used\)$/m,
    ],
  },
  { command: /^npx agentdef ask .*Q3 offsite/, prints: ['Quinta da Serra', COMPLETED, REPLAYED] },
  {
    command: /^npx agentdef deploy dist\/agents\/local-notes --dry-run --into dist\/services/,
    prints: [
      'dry run: would install the systemd service for local-notes at dist/services/agentdef-local-notes.service',
    ],
  },
  {
    command: /^npx nx run text-digest:serve/,
    prints: [/text-digest@1\.0\.0 \(Cloudflare Worker: .*\) serves A2A at http:\/\/127\.0\.0\.1:\d+\//],
  },
  {
    command: /^npx nx run text-digest:deploy --dry-run/,
    prints: ['dry run: nothing was uploaded', 'Successfully ran target deploy'],
  },
  { command: /^npx agentdef application catalog/, prints: [/^catalog digest\s+[0-9a-f]{64}$/m] },
  { command: /^npx agentdef application digest /, prints: [/source\.sha256 [0-9a-f]{64} is up to date/] },
  { command: /^npx agentdef application plan /, prints: [/^ {2}plan digest\s+[0-9a-f]{64}$/m] },
  { command: /^npx agentdef application execute /, prints: ['release-brief@1.0.0: succeeded (dry-run)'] },
  { command: /^npx agentdef application check /, prints: [/^\d+ checks passed$/m] },
  { command: /^npx agentdef mcp /, prints: ['agentdef mcp: serving the application tools over stdio'] },
  { command: /^npx nx g agentdef:application triage/, prints: ['CREATE triage/application.json'] },
  { command: /^npx nx run release-brief:check/, prints: [/^\d+ checks passed$/m, 'Successfully ran target check'] },
  { command: /^npx agentdef keys generate keyref:acme-receipts/, prints: ['generated keyref:acme-receipts'] },
  {
    command: /^npx agentdef bench-tool examples\/text-stats --runs 2/,
    prints: [
      /^text-metrics\s+count_text\s+8\s+100%/m,
      'wrote the signed tool benchmark events dist/bench/text-stats/tool-benchmark-events.json (signed by keyref:acme-receipts',
    ],
  },
  {
    command: /^npx nx run text-stats:promote --to=tool-shipped/,
    prints: [
      'promotion tool-prototype -> tool-shipped',
      /receipt appended to examples\/text-stats\/lifecycle\.receipts\.jsonl \(signed by keyref:acme-receipts/,
    ],
  },
  {
    command: /^npx nx run text-stats:publish --worker-url=/,
    prints: [/published text-stats@1\.0\.0 \(sha256:[0-9a-f]+\) from commit [0-9a-f]{40}/],
  },
  {
    command: /^npx agentdef verify registry\/agents\/text-stats\/1\.0\.0\.agentfacts\.vc\.json/,
    prints: [/verified credential \(signed by did:key:z6Mk\w+\)/],
  },
  {
    command: /^npx agentdef registry verify/,
    prints: [/^verified text-stats@1\.0\.0$/m, '1 of 1 published versions verified'],
  },
  { command: /^npx agentdef diff /, prints: ['required bump: patch; actual bump: none'] },
  { command: /^npx nx g agentdef:import-card /, prints: ['CREATE text-stats-card/agent.json'] },
];

describe('README.md (the sections on the agentdef checkout), every command as written in a scratch workspace', () => {
  let ws: TempWorkspace;

  beforeAll(() => {
    ws = readerWorkspace('readme', { examples: true });
  });

  afterAll(() => killLeftovers());

  it('runs every command in order, each exiting as the README says and printing what it says', async () => {
    const results = await followPagePrinting(PAGE, ws, PRINTS);
    expect(results.filter((r) => r.skipped !== undefined).map((r) => r.command)).toEqual([
      'npm ci --no-audit --no-fund && npm run main',
      'npm test',
    ]);
    expect(results.filter((r) => r.step.kind === 'command' && r.skipped === undefined).length).toBeGreaterThanOrEqual(
      PRINTS.length,
    );
  });
});
