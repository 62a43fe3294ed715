/**
 * The suite's own rules, checked on every test file's syntax tree (TypeScript's parser):
 *
 * - no test sets its own timeout (a number after the test function, or `{ timeout }` options on
 *   it/test/describe/a hook): vitest.config.mts holds one generous backstop, and a test waits on
 *   events and progress, so a loaded machine (two suites at once) cannot fail it;
 * - a limit on a child process a test waits for (`timeout:` in spawnSync/execFileSync options) is
 *   `HUNG_CHILD_MS` (e2e/support/hung-child.ts, the backstop's length), never a number of its own:
 *   it catches a hung child, and a slow one on a loaded machine passes;
 * - nothing is left out or singled out: no `.skip`, `.only`, `.todo` or `.fails`, and `skipIf` /
 *   `runIf` only on the platform (`process.platform`), never on the environment a run happens to have.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const REPO = join(__dirname, '..', '..');
const TEST_CALLS = new Set(['it', 'test', 'describe', 'suite', 'beforeAll', 'afterAll', 'beforeEach', 'afterEach']);
const LEFT_OUT = new Set(['skip', 'only', 'todo', 'fails']);

/** The identifier a call chain starts from: `it` for `it.each(...)(...)`, `describe.skipIf(x)`. */
function rootName(expr: ts.Expression): string | undefined {
  let current: ts.Expression = expr;
  for (;;) {
    if (ts.isIdentifier(current)) return current.text;
    if (ts.isPropertyAccessExpression(current) || ts.isCallExpression(current)) current = current.expression;
    else return undefined;
  }
}

/** The property names along a call chain: `['skipIf']` for `it.skipIf(x)(...)`. */
function chainNames(expr: ts.Expression): string[] {
  const names: string[] = [];
  let current: ts.Expression = expr;
  for (;;) {
    if (ts.isPropertyAccessExpression(current)) {
      names.push(current.name.text);
      current = current.expression;
    } else if (ts.isCallExpression(current)) current = current.expression;
    else return names;
  }
}

/** A folder of code only tests use (`e2e/support/`, `__test-support__/`, `e2e/<area>/support/`). */
const isSupport = (dir: string) => /(?:^|[\\/])(?:support|__test-support__)$/.test(dir);

/** Every `*.test.ts` (and test-support module) under the folders vitest.config.mts includes, outside dependencies and outputs. */
function collectTestFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!['node_modules', 'dist', 'tmp', '__fixtures__'].includes(entry.name)) walk(join(dir, entry.name));
      } else if (entry.name.endsWith('.test.ts') || (isSupport(dir) && entry.name.endsWith('.ts')))
        out.push(join(dir, entry.name));
    }
  };
  for (const top of ['plugin', 'generators', 'executors', 'e2e', 'scripts']) walk(join(root, top));
  return out.sort();
}

const isFunction = (node: ts.Node) => ts.isArrowFunction(node) || ts.isFunctionExpression(node);

function hasTimeoutOption(node: ts.Node): boolean {
  return (
    ts.isObjectLiteralExpression(node) &&
    node.properties.some((p) => p.name !== undefined && ts.isIdentifier(p.name) && p.name.text === 'timeout')
  );
}

/** Options given to it/test/describe/a hook (their own rule reports a timeout there). */
function isTestCallOptions(object: ts.Node): boolean {
  const call = object.parent;
  if (call === undefined || !ts.isCallExpression(call)) return false;
  const root = rootName(call.expression);
  return root !== undefined && TEST_CALLS.has(root);
}

/** Each breach in one file, as `path:line: what`. */
function conventionBreaches(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const breaches: string[] = [];
  const at = (node: ts.Node, what: string) =>
    breaches.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}: ${what}`);
  const visit = (node: ts.Node) => {
    if (
      ts.isPropertyAssignment(node) &&
      ts.isIdentifier(node.name) &&
      node.name.text === 'timeout' &&
      ts.isNumericLiteral(node.initializer) &&
      !isTestCallOptions(node.parent)
    )
      at(node, 'a child-process timeout of its own (use HUNG_CHILD_MS)');
    if (ts.isCallExpression(node)) {
      const root = rootName(node.expression);
      if (root !== undefined && TEST_CALLS.has(root)) {
        const names = chainNames(node.expression);
        for (const name of names)
          if (LEFT_OUT.has(name)) at(node, `${root}.${name} leaves a test out or singles one out`);
        if (names.includes('skipIf') || names.includes('runIf')) {
          const condition = ts.isCallExpression(node.expression) ? node.expression.arguments[0] : undefined;
          if (condition !== undefined && !condition.getText(source).includes('process.platform'))
            at(node, `${root}.skipIf/runIf on something other than the platform`);
        }
        const args = node.arguments;
        const fnIndex = args.findIndex(isFunction);
        if (fnIndex >= 0) {
          const after = args[fnIndex + 1];
          if (after !== undefined && (ts.isNumericLiteral(after) || hasTimeoutOption(after)))
            at(after, `${root} sets its own timeout`);
          for (const arg of args.slice(0, fnIndex)) if (hasTimeoutOption(arg)) at(arg, `${root} sets its own timeout`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return breaches;
}

describe('the test suite keeps its own rules', () => {
  it('finds each kind of breach (the check can fail)', () => {
    const sample = [
      "it('a', () => {}, 30_000);",
      "describe('b', { timeout: 5 }, () => {});",
      'beforeAll(async () => {}, 120000);',
      "it('c', () => {}, { timeout: 1 });",
      // Spelled in parts, so that a text search for left-out tests does not find this sample.
      `it.${'skip'}('d', () => {});`,
      `describe.${'only'}('e', () => {});`,
      `it.${'todo'}('f');`,
      "it.skipIf(!process.env.KEY)('g', () => {});",
      "it.skipIf(process.platform === 'win32')('fine', () => {});",
      "it('h', () => { spawnSync('x', [], { timeout: 60_000 }); });",
      "it('fine', () => { spawnSync('x', [], { timeout: HUNG_CHILD_MS }); });",
      "it.each([1])('fine %s', () => {});",
    ].join('\n');
    const found = conventionBreaches('sample.test.ts', sample);
    expect(found.map((b) => b.split(': ')[0])).toEqual([
      'sample.test.ts:1',
      'sample.test.ts:2',
      'sample.test.ts:3',
      'sample.test.ts:4',
      'sample.test.ts:5',
      'sample.test.ts:6',
      'sample.test.ts:7',
      'sample.test.ts:8',
      'sample.test.ts:10',
    ]);
  });

  it('no test file sets a timeout, skips, singles out or leaves a test to do', () => {
    const files = collectTestFiles(REPO);
    expect(files.length).toBeGreaterThan(200);
    const breaches = files.flatMap((file) => conventionBreaches(relative(REPO, file), readFileSync(file, 'utf8')));
    expect(breaches).toEqual([]);
  });
});
