/**
 * Every command of the documentation runs as written (issue 21): each page of README.md and docs/
 * (any depth) with a fenced `sh` command has page tests (e2e/docs/doc-pages.ts) that, together,
 * cover each of its commands exactly once; each test exists and follows its entry; each command a
 * test leaves out is one the page says, next to its block, why it is left out. A new page with a
 * command, a new section, a test removed or a skip the page does not explain fails here.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pageSays } from '../support/doc-page';
import { type CommandStep, extractSteps, fencedBlocks } from '../support/markdown-commands';
import { DOC_PAGE_TESTS } from './doc-pages';

const REPO = join(__dirname, '..', '..');
/** How many lines before its block's opening fence or after its closing one a skip's reason may be. */
const NEAR = 12;

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [relative(REPO, path)] : [];
  });
}

const read = (page: string) => readFileSync(join(REPO, page), 'utf8');
const commandsOf = (page: string, sections?: readonly string[]) =>
  extractSteps(read(page), sections ? { sections } : {}).filter((s): s is CommandStep => s.kind === 'command');

/** The page's text around the fenced block holding `line`. */
function around(markdown: string, line: number): string {
  const block = fencedBlocks(markdown).find((b) => b.line <= line && line <= b.line + b.body.length + 1);
  if (!block) throw new Error(`no fenced block holds line ${line}`);
  const lines = markdown.split(/\r?\n/);
  return lines.slice(Math.max(0, block.line - 1 - NEAR), block.line + block.body.length + 1 + NEAR).join('\n');
}

describe('the documentation pages and their tests', () => {
  const pages = ['README.md', ...markdownFiles(join(REPO, 'docs'))].filter((page) => commandsOf(page).length > 0);

  it('finds the pages with commands', () => {
    expect(pages).toContain('README.md');
    expect(pages).toContain('docs/your-first-agent.md');
    expect(pages.length).toBeGreaterThanOrEqual(11);
  });

  it.each(pages)('%s: its tests cover every command, each exactly once', (page) => {
    const entries = DOC_PAGE_TESTS.filter((e) => e.page === page);
    expect(entries.length, `${page} has commands and no test: add one to e2e/docs/doc-pages.ts`).toBeGreaterThan(0);
    const covered = entries.flatMap((e) => commandsOf(page, e.sections).map((c) => c.line));
    const uncovered = commandsOf(page).filter((c) => !covered.includes(c.line));
    expect(uncovered.map((c) => `${page}:${c.line}: ${c.command}`)).toEqual([]);
    expect(covered.length, `${page}: a command is covered by two tests`).toBe(new Set(covered).size);
  });

  it.each(DOC_PAGE_TESTS.map((e) => [e.test, e] as const))(
    '%s follows its page and leaves out only what the page explains next to the command',
    (test, entry) => {
      expect(pages, `${entry.page} has no command`).toContain(entry.page);
      expect(existsSync(join(REPO, test)), `${test} does not exist`).toBe(true);
      const source = readFileSync(join(REPO, test), 'utf8');
      expect(source).toContain(`docPageTest('${test}')`);
      expect(source).toMatch(/\bfollowPage(Printing)?\(/);
      const markdown = read(entry.page);
      const commands = commandsOf(entry.page, entry.sections);
      for (const skip of entry.skip) {
        const matched = commands.filter((c) => skip.match.test(c.command));
        expect(matched.length, `${test}: ${skip.match} matches no command of ${entry.page}`).toBeGreaterThan(0);
        expect(pageSays(markdown, skip.reason), `${entry.page} does not say "${skip.reason}"`).toBe(true);
        for (const command of matched)
          expect(
            pageSays(around(markdown, command.line), skip.reason),
            `${entry.page}:${command.line}: "${skip.reason}" is not said next to ${command.command}`,
          ).toBe(true);
      }
    },
  );

  it('every test in e2e/docs/ is a page test listed in doc-pages.ts, once', () => {
    const tests = readdirSync(__dirname)
      .filter((name) => name.endsWith('.test.ts') && name !== 'doc-pages.test.ts')
      .map((name) => `e2e/docs/${name}`);
    expect([...new Set(DOC_PAGE_TESTS.map((e) => e.test))].sort()).toEqual(tests.sort());
    expect(DOC_PAGE_TESTS.length).toBe(new Set(DOC_PAGE_TESTS.map((e) => e.test)).size);
  });
});
