/**
 * The example tool implementations (examples/tools, mapped by tools.json) on their own: what
 * they compute, how they fail, and that the file tools stay inside their in-memory sandbox.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyHunks, applyUnifiedDiff, parseUnifiedDiff } from '../../examples/tools/diff-apply';
import { writeFile } from '../../examples/tools/fs-write';
import { extractKeywords } from '../../examples/tools/keyword-extract';
import { LIMITS, sandboxPath } from '../../examples/tools/sandbox-files';
import { classifyText } from '../../examples/tools/text-classify';
import { countText, measureText, syllables } from '../../examples/tools/text-metrics';
import type { ToolContext } from '../../examples/tools/tool-context';
import { decodeEntities, fetchPage, readableText } from '../../examples/tools/web-fetch';
import { readFile } from '../../examples/tools/workspace-read';
import { repoRoot } from './support/example-workspace';

const context = (
  runId: string,
  fetchImpl: typeof fetch = () => Promise.reject(new Error('no network')),
): ToolContext => ({
  runId,
  tool: { id: 't', name: 't' },
  signal: new AbortController().signal,
  fetch: fetchImpl,
});

describe('tools.json', () => {
  it('maps every skill-package and scripted tool of the examples to an existing module', () => {
    const tools = (
      JSON.parse(readFileSync(join(repoRoot, 'tools.json'), 'utf8')) as {
        tools: Record<string, { module: string; export: string }>;
      }
    ).tools;
    const bundled = new Set<string>();
    for (const folder of readdirSync(join(repoRoot, 'examples'))) {
      const file = join(repoRoot, 'examples', folder, 'agent.json');
      if (!existsSync(file)) continue; // the YAML example (pdf-extractor) has native tools only
      const definition = JSON.parse(readFileSync(file, 'utf8')) as {
        toolInventory: { id: string; provenance: string }[];
      };
      for (const tool of definition.toolInventory)
        if (tool.provenance === 'skill-package' || tool.provenance === 'scripted') bundled.add(tool.id);
    }
    expect(bundled.size).toBeGreaterThanOrEqual(7);
    expect(Object.keys(tools).sort()).toEqual([...bundled].sort());
    for (const [id, entry] of Object.entries(tools)) {
      const module = readFileSync(join(repoRoot, entry.module), 'utf8');
      expect(module, id).toMatch(new RegExp(`export (async )?function ${entry.export}\\(`));
    }
  });
});

describe('text-metrics', () => {
  it('counts characters, words, sentences, paragraphs and lines, and scores readability', () => {
    expect(countText({ text: 'The cat sat.\nIt purred!\n\nThen it slept.' })).toEqual({
      characters: 39,
      words: 8,
      sentences: 3,
      paragraphs: 2,
      lines: 4,
      fleschReadingEase: 119.5,
    });
    expect(measureText('')).toEqual({ characters: 0, words: 0, sentences: 0, paragraphs: 0, lines: 0 });
    expect(measureText('👩‍👩‍👧 family').characters).toBe(8);
    expect(measureText('line\n').lines).toBe(1);
    expect([syllables('the'), syllables('readable'), syllables('syllable')]).toEqual([1, 3, 3]);
    expect(() => countText({ text: 5 })).toThrow('argument "text" must be a string');
  });
});

describe('diff-apply', () => {
  const source = 'one\ntwo\nthree\nfour\nfive\n';

  it('applies a diff cleanly, even when its hunk sits a few lines off', () => {
    expect(applyUnifiedDiff({ source, diff: '--- a\n+++ b\n@@ -2,2 +2,2 @@\n two\n-three\n+THREE\n' })).toEqual({
      applied: true,
      result: 'one\ntwo\nTHREE\nfour\nfive\n',
      hunks: 1,
    });
    expect(applyUnifiedDiff({ source, diff: '@@ -1,2 +1,2 @@\n four\n-five\n+FIVE\n' })).toEqual({
      applied: true,
      result: 'one\ntwo\nthree\nfour\nFIVE\n',
      hunks: 1,
    });
    expect(applyUnifiedDiff({ source, diff: '@@ -1,0 +2,1 @@\n+one-and-a-half\n' })).toEqual({
      applied: true,
      result: 'one\none-and-a-half\ntwo\nthree\nfour\nfive\n',
      hunks: 1,
    });
  });

  it('applies all hunks or none, and says which hunk does not apply', () => {
    const diff = '@@ -1,1 +1,1 @@\n-one\n+ONE\n@@ -4,1 +4,1 @@\n-FOUR\n+4\n';
    expect(applyUnifiedDiff({ source, diff })).toEqual({
      applied: false,
      rejected: [{ hunk: 2, reason: 'its context does not match the file near line 4' }],
    });
    expect(applyHunks(source, [])).toEqual({
      applied: false,
      rejected: [{ hunk: 0, reason: 'the diff has no hunks' }],
    });
    expect(
      parseUnifiedDiff(
        'diff --git a/x b/x\nindex 1..2\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n\\ No newline at end of file\n',
      ),
    ).toEqual([{ oldStart: 1, oldLines: ['a'], newLines: ['b'] }]);
  });
});

describe('the file sandbox (fs-write, workspace-read)', () => {
  it('writes and reads files per run, in memory, and never outside the workspace', () => {
    expect(writeFile({ path: 'src/./a.ts', content: 'x' }, context('run-1'))).toEqual({
      path: 'src/a.ts',
      bytes: 1,
      created: true,
    });
    expect(writeFile({ path: 'src/a.ts', content: 'héllo' }, context('run-1'))).toEqual({
      path: 'src/a.ts',
      bytes: 6,
      created: false,
    });
    expect(readFile({ path: 'src//a.ts' }, context('run-1'))).toEqual({ path: 'src//a.ts', content: 'héllo' });
    expect(() => readFile({ path: 'src/a.ts' }, context('run-2'))).toThrow(
      'no file "src/a.ts" in this run\'s workspace (it is empty)',
    );
    expect(() => readFile({ path: 'b.ts' }, context('run-1'))).toThrow('(it holds src/a.ts)');
    for (const bad of ['/etc/passwd', '../x', 'a/../../x', 'C:/x', 'a\\b', '', 'a\u0000b'])
      expect(() => sandboxPath(bad), bad).toThrow();
    expect(() => writeFile({ path: 'big', content: 'x'.repeat(LIMITS.maxFileBytes + 1) }, context('run-3'))).toThrow(
      'above the sandbox limit',
    );
  });

  it('keeps at most a bounded number of runs', () => {
    for (let i = 0; i <= LIMITS.maxRuns; i++) writeFile({ path: 'f', content: String(i) }, context(`bounded-${i}`));
    expect(() => readFile({ path: 'f' }, context('bounded-0'))).toThrow('no file');
    expect(readFile({ path: 'f' }, context(`bounded-${LIMITS.maxRuns}`)).content).toBe(String(LIMITS.maxRuns));
  });
});

describe('web-fetch', () => {
  it('fetches through the run fetch and reduces HTML to readable text', async () => {
    const asked: string[] = [];
    const fakeFetch = (async (input: RequestInfo | URL) => {
      asked.push(String(input));
      return new Response(
        '<html><head><title>T &amp; U</title><style>x{}</style></head><body><p>Hello&nbsp;<b>world</b></p><script>evil()</script><p>&#x263A; bye</p></body></html>',
        {
          headers: { 'content-type': 'text/html' },
        },
      );
    }) as typeof fetch;
    const page = await fetchPage(
      { url: 'https://web.archive.org/web/2026/https://example.com/' },
      context('r', fakeFetch),
    );
    expect(asked).toEqual(['https://web.archive.org/web/2026/https://example.com/']);
    expect(page).toMatchObject({ status: 200, title: 'T & U', text: 'Hello world\n☺ bye', truncated: false });
    const short = await fetchPage({ url: 'https://web.archive.org/', maxChars: 5 }, context('r', fakeFetch));
    expect(short).toMatchObject({ text: 'Hello', truncated: true });
  });

  it('refuses other schemes, reports HTTP errors, and lets the egress error through untouched', async () => {
    await expect(fetchPage({ url: 'file:///etc/passwd' }, context('r'))).rejects.toThrow('only http(s) URLs');
    const notFound = (async () => new Response('gone', { status: 404 })) as unknown as typeof fetch;
    await expect(fetchPage({ url: 'https://web.archive.org/x' }, context('r', notFound))).rejects.toThrow(
      'the page answered HTTP 404',
    );
    const egress = Object.assign(new Error('egress_blocked: evil.example'), { code: 'egress_blocked' });
    await expect(
      fetchPage(
        { url: 'https://evil.example/' },
        context('r', () => Promise.reject(egress)),
      ),
    ).rejects.toBe(egress);
    expect(decodeEntities('&lt;&#60;&#x3C;&bogus;')).toBe('<<<&bogus;');
    expect(readableText('plain')).toEqual({ text: 'plain' });
  });
});

describe('text-classify and keyword-extract', () => {
  it('tell code from prose and pass the text on', () => {
    expect(classifyText({ text: 'const a = 1;\nfunction f() {\n  return a;\n}' })).toMatchObject({
      kind: 'code',
      codeLineShare: 1,
      lines: 4,
    });
    expect(classifyText({ text: 'A release note.\nIt says what changed.' })).toEqual({
      kind: 'prose',
      codeLineShare: 0,
      lines: 2,
      text: 'A release note.\nIt says what changed.',
    });
  });

  it('count content words, stop words out, ties in alphabetical order', () => {
    expect(extractKeywords({ text: 'The beta and the alpha; alpha, beta, gamma!', limit: 2 })).toEqual({
      keywords: [
        { word: 'alpha', count: 2 },
        { word: 'beta', count: 2 },
      ],
      words: 8,
    });
  });
});
