/**
 * The functions a Worker's first request runs longest are written in parentheses, so that V8
 * compiles them with the code around them (the module, or the A2A handler's factory, which the
 * generated entry calls when the isolate starts) instead of on the first request: V8 takes a
 * parenthesised function expression as one about to be called (docs/performance.md, issue 27).
 * The formatter would drop the parentheses (each carries a `biome-ignore format` note) and a
 * bundler may drop them too: the sources and the bundled worker.js are both checked, so a change
 * that loses them fails here rather than only in the benchmark.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exampleWorkerJs } from './__test-support__/example-worker-js';

const ROOT = join(__dirname, '..', '..', '..');

/** Per source file, the functions written in parentheses (`handleRequest`: the handler the factory returns). */
const EAGER: Record<string, readonly string[]> = {
  'plugin/runtime/a2a-handler.ts': [
    'stopText',
    'prepareSend',
    'finishedTask',
    'startRun',
    'handleSend',
    'refuseEarly',
    'handleRpcBody',
    'dispatch',
    'handleRequest',
  ],
  'plugin/runtime/a2a-wire.ts': ['tooDeepAt', 'parseMessage', 'parseV1Part', 'messageToInput', 'renderTask'],
  'plugin/runtime/agent-loop.ts': ['runAgentLoopWithParts', 'runToolOnly'],
  'plugin/runtime/redact.ts': ['createRedactor'],
  'plugin/runtime/request-guard.ts': ['readBodyText'],
  'plugin/runtime/run-agent.ts': ['runAgentWithParts'],
  'plugin/runtime/run-budget.ts': ['createRunBudget'],
};
const EAGER_COUNT = Object.values(EAGER).reduce((n, names) => n + names.length, 0);

/** In minified code, a function expression in parentheses where a value is assigned or returned (a call's argument does not count). */
const PARENTHESISED = /(?:=|return)\((?:async function\b|function\b|\([^()]*\)=>|[\w$]+=>)/g;

describe('the request path compiled when the isolate starts', () => {
  it.each(Object.entries(EAGER))('%s writes its request-path functions in parentheses', (file, names) => {
    const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
    for (const name of names) {
      const at = lines.findIndex((line) =>
        name === 'handleRequest'
          ? /^\s*return \(async function handleRequest\(/.test(line)
          : new RegExp(
              `^\\s*(?:export )?const ${name} = \\((?:async function ${name}\\(|function ${name}\\(|\\()`,
            ).test(line),
      );
      expect(at, `${file}: ${name} in parentheses`).toBeGreaterThan(0);
      expect(lines[at - 1], `${file}: the formatter note above ${name}`).toMatch(/^\s*\/\/ biome-ignore format: /);
    }
  });

  it('keeps every one of them in parentheses through the Worker bundle (esbuild, minified)', async () => {
    const worker = await exampleWorkerJs('text-stats');
    // The bundle's own code has no other parenthesised function (checked: none before this change).
    expect(worker.match(PARENTHESISED)?.length ?? 0).toBeGreaterThanOrEqual(EAGER_COUNT);
    // The handler is made when the isolate starts: the entry's fetch only calls it.
    expect(worker).toMatch(
      /fetch\([\w$]+,[\w$]+,([\w$]+)\)\{return [\w$]+\([\w$]+,\{waitUntil:[\w$]+=>\1\.waitUntil\([\w$]+\)\}\)\}/,
    );
  });
});
