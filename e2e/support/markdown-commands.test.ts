/** The markdown step extractor the doc-following tests rely on: commands, long-running marks, file blocks, sections. */
import { describe, expect, it } from 'vitest';
import { extractSteps, fencedBlocks } from './markdown-commands';

const PAGE = [
  '# Page', // 1
  '```sh', // 2
  '# a comment', // 3
  'npx nx g agentdef:init', // 4
  '', // 5
  'npx agentdef dev dist/a --port 8787   # serves until Ctrl-C', // 6
  'npx agentdef compile a/agent.json \\', // 7
  '  --target hb3', // 8
  '```', // 9
  '```text', // 10
  'npx not-a-command', // 11
  '```', // 12
  '## Files', // 13
  '```ts title="a/tool.ts"', // 14
  'export const x = 1;', // 15
  '```', // 16
  '```json title="a/agent.json" pointer="/toolInventory"', // 17
  '[]', // 18
  '```', // 19
  '# Next', // 20
  '```bash', // 21
  'echo done', // 22
  'npx agentdef dev dist/b --port 8788   # serves until Ctrl-C: keep it running for the next sections', // 23
  'npx agentdef diff a.json b.json   # the bump it needs: exits 1 until it is made', // 24
  '```', // 25
].join('\n');

describe('extractSteps', () => {
  it('reads commands (joined continuations, long-running marks), titled files and pointers, in page order', () => {
    expect(extractSteps(PAGE)).toEqual([
      {
        kind: 'command',
        command: 'npx nx g agentdef:init',
        line: 4,
        block: 0,
        longRunning: false,
        keepServing: false,
        exits: 0,
      },
      {
        kind: 'command',
        command: 'npx agentdef dev dist/a --port 8787   # serves until Ctrl-C',
        line: 6,
        block: 0,
        longRunning: true,
        keepServing: false,
        exits: 0,
      },
      {
        kind: 'command',
        command: 'npx agentdef compile a/agent.json --target hb3',
        line: 7,
        block: 0,
        longRunning: false,
        keepServing: false,
        exits: 0,
      },
      { kind: 'file', path: 'a/tool.ts', content: 'export const x = 1;\n', line: 14 },
      { kind: 'file', path: 'a/agent.json', pointer: '/toolInventory', content: '[]\n', line: 17 },
      { kind: 'command', command: 'echo done', line: 22, block: 4, longRunning: false, keepServing: false, exits: 0 },
      {
        kind: 'command',
        command: 'npx agentdef dev dist/b --port 8788   # serves until Ctrl-C: keep it running for the next sections',
        line: 23,
        block: 4,
        longRunning: true,
        keepServing: true,
        exits: 0,
      },
      {
        kind: 'command',
        command: 'npx agentdef diff a.json b.json   # the bump it needs: exits 1 until it is made',
        line: 24,
        block: 4,
        longRunning: false,
        keepServing: false,
        exits: 1,
      },
    ]);
  });

  it('limits the steps to one section or several, numbering blocks across the whole page, and names a missing one', () => {
    expect(extractSteps(PAGE, { section: 'Files' }).map((s) => s.line)).toEqual([14, 17]);
    expect(extractSteps(PAGE, { sections: ['Next', 'Files'] }).map((s) => s.line)).toEqual([14, 17, 22, 23, 24]);
    expect(extractSteps(PAGE, { section: 'Next' }).map((s) => (s.kind === 'command' ? s.block : -1))).toEqual([
      4, 4, 4,
    ]);
    expect(() => extractSteps(PAGE, { section: 'Nope' })).toThrow('no heading "Nope"');
  });

  it('lists every fenced block with its language and body', () => {
    expect(fencedBlocks(PAGE).map((b) => [b.line, b.language, b.body.length])).toEqual([
      [2, 'sh', 6],
      [10, 'text', 1],
      [14, 'ts', 1],
      [17, 'json', 1],
      [21, 'bash', 3],
    ]);
  });
});
