/**
 * docs/hb3.md, every command as written (e2e/support/doc-page.ts), in a scratch workspace holding
 * the repository's examples (e2e/support/doc-workspace.ts): splice-resolver compiled for HB3, with
 * the job spec, the image and the weights lock the page describes. Left out, with the reason the
 * page gives next to it: `agentdef run` of that job, which needs the fine-tuned checkpoint's
 * weights and the native tool's binary (e2e/cross-host/run-host-examples.test.ts runs it with
 * stand-ins of both).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followPagePrinting, killLeftovers, type Prints } from '../support/doc-page';
import { readerWorkspace } from '../support/doc-workspace';
import type { TempWorkspace } from '../support/nx-workspace';
import { docPageTest } from './doc-pages';

const PAGE = docPageTest('e2e/docs/hb3.test.ts');

const PRINTS: readonly Prints[] = [
  {
    command: /^npx agentdef compile examples\/splice-resolver\/agent\.json --target hb3$/,
    prints: [
      /^compiled splice-resolver@0\.4\.2 for hb3 \(container-required\) into dist\/agents\/splice-resolver: .*hb3-job\.json, image\/Dockerfile, image\/entrypoint\.mjs/m,
      'weights.lock.json',
    ],
  },
];

describe('docs/hb3.md, every command as written in a scratch workspace', () => {
  let ws: TempWorkspace;

  beforeAll(() => {
    ws = readerWorkspace('hb3', { examples: true });
  });

  afterAll(() => killLeftovers());

  it('compiles splice-resolver for HB3 into the output the page describes', async () => {
    const results = await followPagePrinting(PAGE, ws, PRINTS);
    expect(results.filter((r) => r.skipped !== undefined).map((r) => r.command)).toEqual([
      'npx agentdef run dist/agents/splice-resolver --weights ./weights   # or: nx run splice-resolver:run',
    ]);
    const job = JSON.parse(readFileSync(join(ws.dir, 'dist/agents/splice-resolver/hb3-job.json'), 'utf8')) as {
      apiVersion: string;
      kind: string;
    };
    expect(job.apiVersion).toBe('hb3.agentdef.dev/v1');
    expect(existsSync(join(ws.dir, 'dist/agents/splice-resolver/weights.lock.json'))).toBe(true);
  });
});
