/**
 * The local-mac adapter's golden files: everything it emits for three examples (a tool-only agent
 * on a stdio MCP server, an Ollama agent with an MCP tool, a native tool) except the bundled
 * `launch.mjs`, which changes with every runtime change and is run by the e2e/local tests instead.
 */
import type { EmittedFile } from '../../../plugin/targets/target';
import type { GoldenSuite } from '../golden-suite';

export const BUNDLE = 'launch.mjs';

export const suite: GoldenSuite = {
  target: 'local-mac',
  examples: ['code-search', 'local-notes', 'pdf-extractor'],
  select(files: readonly EmittedFile[]) {
    return new Map(files.filter((f) => f.path !== BUNDLE).map((f) => [f.path, f.contents]));
  },
};
