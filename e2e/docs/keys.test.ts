/**
 * docs/keys.md, every command as written, in order (e2e/support/doc-page.ts), in a scratch
 * workspace whose HOME is the test's (e2e/support/doc-workspace.ts), so the keys folder is the
 * default `~/.config/agentdef/keys`: a key generated (its public JWK and kid printed, never the
 * private part), listed, its public JWK exported with the same kid; the private file is 0600 in a
 * 0700 folder, as the page says. Left out, with the reason the page gives next to it: generating
 * into the OS keychain.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followPagePrinting, killLeftovers, type Prints, type StepResult } from '../support/doc-page';
import { readerWorkspace } from '../support/doc-workspace';
import type { TempWorkspace } from '../support/nx-workspace';
import { docPageTest } from './doc-pages';

const PAGE = docPageTest('e2e/docs/keys.test.ts');

const PRINTS: readonly Prints[] = [
  {
    command: /^npx agentdef keys generate keyref:acme-receipts\s/,
    prints: [
      'generated keyref:acme-receipts (private key in the keys folder, mode 0600)',
      /^kid: [\w-]{43}$/m,
      /^public JWK: \{"kty":"OKP","crv":"Ed25519","x":"[\w-]{43}"\}$/m,
    ],
  },
  { command: /^npx agentdef keys list\s/, prints: [/^keyref:acme-receipts {2}kid [\w-]{43} {2}private key: folder$/m] },
  {
    command: /^npx agentdef keys export-public keyref:acme-receipts\s/,
    prints: ['"kty": "OKP"', /"kid": "[\w-]{43}"/],
  },
];

describe('docs/keys.md, every command as written in a scratch home', () => {
  let ws: TempWorkspace;

  beforeAll(() => {
    ws = readerWorkspace('keys');
  });

  afterAll(() => killLeftovers());

  it('generates, lists and exports a key in the default keys folder, never printing the private part', async () => {
    const results: StepResult[] = await followPagePrinting(PAGE, ws, PRINTS);
    expect(results.filter((r) => r.skipped !== undefined).map((r) => r.command)).toEqual([
      'npx agentdef keys generate keyref:mia-laptop --store keychain  # OS keychain',
    ]);
    const folder = join(ws.home, '.config', 'agentdef', 'keys');
    const privateJwk = JSON.parse(readFileSync(join(folder, 'acme-receipts.private.jwk.json'), 'utf8')) as {
      d: string;
    };
    expect(statSync(join(folder, 'acme-receipts.private.jwk.json')).mode & 0o777).toBe(0o600);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    for (const result of results) expect(result.output).not.toContain(privateJwk.d);
    // One kid throughout: generate's, list's and export-public's.
    const kids = new Set(
      results.flatMap((r) => [...r.output.matchAll(/(?:kid:? |"kid": ")([\w-]{43})/g)].map((m) => m[1])),
    );
    expect(kids.size).toBe(1);
  });
});
