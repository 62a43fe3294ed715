/**
 * docs/publishing-and-verifying.md, followed as written (issue 21): every fenced `sh` command and
 * titled file of the page, in order (e2e/support/doc-page.ts), in a scratch workspace as the page
 * describes it (e2e/support/doc-workspace.ts): a fresh Nx workspace with agentdef installed from
 * its packed tarball, the repository's `examples/` (and its tools.json, mcp.json) committed to
 * git, the plugin registered for them. Each command must exit 0 and print what the page says it does: the key generated,
 * text-stats benchmarked (`agentdef bench-tool`: tool-shipped needs its signed events) and promoted
 * to tool-shipped with a signed receipt, that receipt verified with the public
 * key of the local key store (no --key), the definition committed and published through Nx with
 * the Worker URL the page sets, the credential, the card and the registry verified, the published
 * version planned through kym://, the CLI's publication of the same commit a no-op, and the OASF
 * record exported (the one publish wrote: same skills, domains and commit time).
 *
 * HOME (so the default keys folder, ~/.config/agentdef/keys), caches and state live in the test's
 * temp folder; the keychain is off; npm runs offline.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followPagePrinting, killLeftovers, type Prints } from '../support/doc-page';
import { readerWorkspace } from '../support/doc-workspace';
import { type CommandStep, extractSteps } from '../support/markdown-commands';
import type { TempWorkspace } from '../support/nx-workspace';
import { repoRoot } from '../support/run-cli';
import { docPageTest } from './doc-pages';

const PAGE = docPageTest('e2e/docs/publishing-and-verifying.test.ts');

/** What each command of the page prints, by the command it is (every row must meet a command). */
const PRINTS: readonly Prints[] = [
  {
    command: /^npx agentdef keys generate keyref:acme-receipts\b/,
    prints: [/^generated keyref:acme-receipts \(private key in the keys folder, mode 0600\)$/m, /^kid: \S+$/m],
  },
  {
    command: /^npx agentdef bench-tool examples\/text-stats --runs 2/,
    prints: [
      /^text-metrics\s+count_text\s+8\s+100%/m,
      'wrote the signed tool benchmark events dist/bench/text-stats/tool-benchmark-events.json (signed by keyref:acme-receipts',
    ],
  },
  {
    command: /^npx nx run text-stats:promote --to=tool-shipped\b/,
    prints: [
      /examples\/text-stats\/agent\.json: promotion tool-prototype -> tool-shipped/,
      /receipt appended to examples\/text-stats\/lifecycle\.receipts\.jsonl \(signed by keyref:acme-receipts, kid \S+\)/,
    ],
  },
  {
    command: /^npx agentdef verify examples\/text-stats\/lifecycle\.receipts\.jsonl\b/,
    prints: [
      /^examples\/text-stats\/lifecycle\.receipts\.jsonl:1: verified lifecycle-receipt \(signed by kid \S+: keyref:acme-receipts, public key from the local key store\)$/m,
      /^1 of 1 lines verified$/m,
    ],
  },
  { command: /^git commit -am "text-stats 1\.0\.0"/, prints: [/text-stats 1\.0\.0/] },
  {
    command: /^npx nx run text-stats:publish\s*(#|$)/,
    prints: [
      /published text-stats@1\.0\.0 \(sha256:[0-9a-f]+\) from commit [0-9a-f]{40}/,
      /wrote registry\/agents\/text-stats\/1\.0\.0\.card\.json/,
    ],
  },
  {
    command: /^npx agentdef verify registry\/agents\/text-stats\/1\.0\.0\.agentfacts\.vc\.json/,
    prints: [/verified credential \(signed by did:key:z6Mk\w+\)/],
  },
  {
    command: /^npx agentdef verify registry\/agents\/text-stats\/1\.0\.0\.card\.json/,
    prints: [/verified agent-card \(signed by kid \S+: keyref:acme-receipts, public key from the local key store\)/],
  },
  {
    command: /^npx agentdef registry verify\b/,
    prints: [/^verified text-stats@1\.0\.0$/m, /1 of 1 published versions verified/],
  },
  {
    command: /^npx agentdef plan kym:\/\/agents\/text-stats@1\.0\.0/,
    prints: [/text-stats@1\.0\.0/, /registry\/agents\/text-stats\/1\.0\.0\.json/],
  },
  {
    command:
      /^npx agentdef publish examples\/text-stats\/agent\.json --worker-url https:\/\/text-stats\.example\.workers\.dev/,
    prints: [/text-stats@1\.0\.0 is already published with identical content .*: nothing to do/],
  },
  {
    command:
      /^npx agentdef export oasf examples\/text-stats\/agent\.json --worker-url https:\/\/text-stats\.example\.workers\.dev --out text-stats\.oasf\.json/,
    prints: [/^wrote text-stats\.oasf\.json \(OASF 1\.2\.0-dev record of text-stats@1\.0\.0\)$/m],
  },
];

describe('docs/publishing-and-verifying.md, every command as written in a scratch workspace', () => {
  let ws: TempWorkspace;

  beforeAll(() => {
    ws = readerWorkspace('publishing-and-verifying', { examples: true });
  });

  afterAll(() => killLeftovers());

  it('is the whole flow: a key, a promotion, its receipt verified, a commit, a publication through Nx, every export verified', () => {
    const commands = extractSteps(readFileSync(PAGE.path, 'utf8')).filter(
      (s): s is CommandStep => s.kind === 'command',
    );
    for (const { command } of PRINTS)
      expect(
        commands.some((c) => command.test(c.command)),
        String(command),
      ).toBe(true);
  });

  it('runs every command of the page in order, each exiting 0 and printing what the page says', async () => {
    const results = await followPagePrinting(PAGE, ws, PRINTS);
    expect(results.filter((r) => r.skipped !== undefined)).toEqual([]);
    // What the flow left: text-stats at tool-shipped (the only change to the file), committed; the registry entry.
    const definition = readFileSync(join(ws.dir, 'examples/text-stats/agent.json'), 'utf8');
    expect(definition).toBe(
      readFileSync(join(repoRoot, 'examples/text-stats/agent.json'), 'utf8').replace(
        '"lifecycleState": "tool-prototype"',
        '"lifecycleState": "tool-shipped"',
      ),
    );
    const snapshot = JSON.parse(readFileSync(join(ws.dir, 'registry/agents/text-stats/1.0.0.json'), 'utf8')) as {
      lifecycleState: string;
      metadata: { cardExports: { agentCard: { supportedInterfaces: { url: string }[] } } };
    };
    expect(snapshot.lifecycleState).toBe('tool-shipped');
    // The OASF record the page exports is the one publish wrote, but for the card module (publish's card is signed).
    const exported = JSON.parse(readFileSync(join(ws.dir, 'text-stats.oasf.json'), 'utf8')) as Record<string, unknown>;
    const published = JSON.parse(
      readFileSync(join(ws.dir, 'registry/agents/text-stats/1.0.0.oasf.json'), 'utf8'),
    ) as Record<string, unknown>;
    for (const field of ['name', 'version', 'schema_version', 'created_at', 'skills', 'domains'])
      expect(exported[field], field).toEqual(published[field]);
    const urls = snapshot.metadata.cardExports.agentCard.supportedInterfaces.map((i) => i.url);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url).toMatch(/^https:\/\/text-stats\.example\.workers\.dev\//);
  });

  it('without the Worker URL, the same nx run text-stats:publish is refused before anything, saying how to give it', () => {
    rmSync(join(ws.dir, 'examples/text-stats/project.json'));
    const registry = readFileSync(join(ws.dir, 'registry/agents/index.json'), 'utf8');
    const r = spawnSync('sh', ['-c', 'npx nx run text-stats:publish'], { cwd: ws.dir, env: ws.env, encoding: 'utf8' });
    const output = `${r.stdout}${r.stderr}`;
    expect(r.status, output).not.toBe(0);
    expect(output).toContain('text-stats@1.0.0 is served as a Cloudflare Worker');
    expect(output).toContain('nx run text-stats:publish --worker-url=https://text-stats.<your-subdomain>.workers.dev');
    expect(output).not.toMatch(/Successfully ran target/);
    expect(readFileSync(join(ws.dir, 'registry/agents/index.json'), 'utf8')).toBe(registry);
    // The CLI spelling of the option reaches the target (Nx camel-cases it).
    const flagged = spawnSync(
      'sh',
      ['-c', 'npx nx run text-stats:publish --worker-url=https://text-stats.example.workers.dev'],
      { cwd: ws.dir, env: ws.env, encoding: 'utf8' },
    );
    expect(flagged.status, `${flagged.stdout}${flagged.stderr}`).toBe(0);
    expect(flagged.stdout).toContain('nothing to do');
  });
});
