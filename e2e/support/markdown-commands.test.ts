/** The markdown step extractor the doc-following tests rely on: commands, long-running marks, file blocks, sections. */
import { describe, expect, it } from 'vitest';
import { extractSteps } from './markdown-commands';

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
  '```', // 23
].join('\n');

describe('extractSteps', () => {
  it('reads commands (joined continuations, long-running marks), titled files and pointers, in page order', () => {
    expect(extractSteps(PAGE)).toEqual([
      { kind: 'command', command: 'npx nx g agentdef:init', line: 4, block: 0, longRunning: false },
      { kind: 'command', command: 'npx agentdef dev dist/a --port 8787   # serves until Ctrl-C', line: 6, block: 0, longRunning: true },
      { kind: 'command', command: 'npx agentdef compile a/agent.json --target hb3', line: 7, block: 0, longRunning: false },
      { kind: 'file', path: 'a/tool.ts', content: 'export const x = 1;\n', line: 14 },
      { kind: 'file', path: 'a/agent.json', pointer: '/toolInventory', content: '[]\n', line: 17 },
      { kind: 'command', command: 'echo done', line: 22, block: 4, longRunning: false },
    ]);
  });

  it('limits the steps to one section, and names a missing one', () => {
    expect(extractSteps(PAGE, { section: 'Files' }).map((s) => s.line)).toEqual([14, 17]);
    expect(() => extractSteps(PAGE, { section: 'Nope' })).toThrow('no heading "Nope"');
  });
});
