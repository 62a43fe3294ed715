/**
 * The HB3 adapter's golden files: everything it emits for three examples (a tuned specialist with
 * a native tool, a tool-only job, the router's workflow with two quarantined child jobs) except
 * the bundled `image/entrypoint.mjs`, which changes with every runtime change and is run by the
 * e2e/hb3 tests instead.
 */
import type { EmittedFile } from '../../../plugin/targets/target';
import type { GoldenSuite } from '../golden-suite';

export const BUNDLE = 'image/entrypoint.mjs';

export const suite: GoldenSuite = {
  target: 'hb3',
  examples: ['splice-resolver', 'pdf-extractor', 'write-router'],
  select(files: readonly EmittedFile[]) {
    return new Map(files.filter((f) => f.path !== BUNDLE).map((f) => [f.path, f.contents]));
  },
};
