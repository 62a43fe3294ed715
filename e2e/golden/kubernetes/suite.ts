/**
 * The Kubernetes adapter's golden files: everything it emits (the HB3 image contract and the
 * manifests in kubernetes/) for three examples (a tuned specialist batch Job with a GPU and its
 * weights claim, a tool-only batch Job whose NetworkPolicy allows nothing, the router's Deployment
 * with its two numbered step Jobs) except the bundled `image/entrypoint.mjs`, which changes with
 * every runtime change and is run by the e2e/hb3 tests instead.
 */
import type { EmittedFile } from '../../../plugin/targets/target';
import type { GoldenSuite } from '../golden-suite';

export const BUNDLE = 'image/entrypoint.mjs';

export const suite: GoldenSuite = {
  target: 'kubernetes',
  examples: ['splice-resolver', 'pdf-extractor', 'write-router'],
  select(files: readonly EmittedFile[]) {
    return new Map(files.filter((f) => f.path !== BUNDLE).map((f) => [f.path, f.contents]));
  },
};
