/**
 * Which test runs which documentation page (issue 21: every fenced `sh` block of README.md and
 * docs/ runs as written), and what each leaves out. A page test follows its entry (followPage with
 * its sections and skips); e2e/docs/doc-pages.test.ts checks that every page with commands has
 * tests covering every command, and that each command left out is one the page itself says, next
 * to it, cannot run here.
 */
import { join } from 'node:path';
import type { Skip } from '../support/doc-page';

export interface DocPageTest {
  /** The page, repository-relative. */
  page: string;
  /** The test that follows it, repository-relative. */
  test: string;
  /** Only these sections of the page (headings); unset: the whole page. */
  sections?: readonly string[];
  /** The commands it leaves out, each with the reason the page gives next to it. */
  skip: readonly Skip[];
}

const REPO = join(__dirname, '..', '..');

/** The README's sections that use the agentdef checkout (its examples); the Nx walk-through has its own test. */
const README_CHECKOUT_SECTIONS = [
  'Quick start',
  'Using the CLI',
  'Running, calling and deploying',
  'Composing applications',
  'Publishing and verifying',
];

export const DOC_PAGE_TESTS: readonly DocPageTest[] = [
  {
    page: 'README.md',
    test: 'e2e/docs/readme.test.ts',
    sections: README_CHECKOUT_SECTIONS,
    skip: [
      { match: /^npm ci --no-audit --no-fund && npm run main$/, reason: '`npm ci` needs the npm registry' },
      { match: /^npm test$/, reason: '`npm test` is the suite those tests belong to' },
    ],
  },
  {
    page: 'README.md',
    test: 'e2e/docs/readme-walkthrough.test.ts',
    sections: ['Using agentdef in an Nx workspace'],
    skip: [
      {
        match: /^npm install -D \/path\/to\/agentdef\//,
        reason: "npm fetches agentdef's dependencies from the registry",
      },
    ],
  },
  {
    page: 'docs/your-first-agent.md',
    test: 'e2e/docs/your-first-agent.test.ts',
    skip: [
      {
        match: /^npm install -D miniflare@\S+ wrangler@\S+$/,
        reason: 'npm fetches both from the registry: the one step of this page its test does not run',
      },
    ],
  },
  { page: 'docs/publishing-and-verifying.md', test: 'e2e/docs/publishing-and-verifying.test.ts', skip: [] },
  { page: 'docs/composing-an-application.md', test: 'e2e/docs/composing-an-application.test.ts', skip: [] },
  { page: 'docs/running-and-calling.md', test: 'e2e/docs/running-and-calling.test.ts', skip: [] },
  { page: 'docs/offline-models.md', test: 'e2e/docs/offline-models.test.ts', skip: [] },
  { page: 'docs/evaluating-an-agent.md', test: 'e2e/docs/evaluating-an-agent.test.ts', skip: [] },
  { page: 'docs/benchmarking-a-tool.md', test: 'e2e/docs/benchmarking-a-tool.test.ts', skip: [] },
  {
    page: 'docs/deploying.md',
    test: 'e2e/docs/deploying.test.ts',
    skip: [
      {
        match: /^npx agentdef deploy dist\/agents\/web-summarizer$/,
        reason: 'It uploads the Worker to your Cloudflare account over the network',
      },
      {
        match: /^npx agentdef deploy dist\/agents\/splice-resolver --registry /,
        reason: 'It builds the image and pushes it to your registry over the network',
      },
      {
        match: /^npx agentdef deploy dist\/agents\/write-router$/,
        reason: 'It applies the manifests to the cluster your kubectl points at',
      },
    ],
  },
  {
    page: 'docs/hb3.md',
    test: 'e2e/docs/hb3.test.ts',
    skip: [
      {
        match: /^npx agentdef run dist\/agents\/splice-resolver --weights /,
        reason: 'this repository ships neither, so the documentation test only compiles it',
      },
    ],
  },
  {
    page: 'docs/local-mac.md',
    test: 'e2e/docs/local-mac.test.ts',
    skip: [
      {
        match: /^node dist\/agents\/local-notes\/launch\.mjs --print-service /,
        reason: 'These lines install and start a service of your login session',
      },
      {
        match: /^(launchctl load|systemctl --user daemon-reload)/,
        reason: 'These lines install and start a service of your login session',
      },
      {
        match: /^node dist\/agents\/local-notes\/launch\.mjs --port /,
        reason: 'The launcher on its own does not replay: it needs Ollama serving `llama3.1:8b`',
      },
    ],
  },
  {
    page: 'docs/keys.md',
    test: 'e2e/docs/keys.test.ts',
    skip: [
      {
        match: /--store keychain/,
        reason: 'without `--store keychain`: it leaves the keychain of the machine it runs on alone',
      },
    ],
  },
  {
    page: 'docs/installing.md',
    test: 'e2e/docs/installing.test.ts',
    skip: [
      { match: /^npm ci --no-audit --no-fund\s/, reason: '`npm ci` needs the npm registry' },
      { match: /^npm run pack$/, reason: 'the test suite runs this same `npm run pack` once before its tests' },
      {
        match: /^npm install -D \/path\/to\/agentdef\//,
        reason:
          "fetches agentdef's dependencies from the registry: the documentation test unpacks the tarball in place instead",
      },
    ],
  },
];

/** The entry of the test file `test` (repository-relative), with its page's absolute path. */
export function docPageTest(test: string): DocPageTest & { path: string } {
  const entry = DOC_PAGE_TESTS.find((e) => e.test === test);
  if (!entry) throw new Error(`e2e/docs/doc-pages.ts lists no test ${test}`);
  return { ...entry, path: join(REPO, entry.page) };
}
