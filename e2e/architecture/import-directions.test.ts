/**
 * The imports run the way DESIGN.md says ("Which way the imports run"), with the rule table in
 * layers.ts: first over a fixture tree laid out like plugin/, executors/ and generators/ that breaks every rule once (the check
 * must report each with file, line and rule), then over the real plugin/, executors/ and generators/,
 * which must break none. A failure lists one `file:line: rule: from → to (specifier; why)` a line.
 * Then value import cycles: a fixture tree with one of each kind, then the real tree, which has none.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkImports,
  extractImports,
  formatViolation,
  importGraph,
  layerOf,
  listSources,
  packageName,
  valueImportCycles,
} from './import-graph';
import { ARCHITECTURE, TOP_FOLDERS } from './layers';

const repoRoot = join(__dirname, '..', '..');
const forbidden = join(__dirname, '__fixtures__', 'forbidden');
const cycles = join(__dirname, '__fixtures__', 'cycles');

describe('the import scanner', () => {
  it('finds every kind of import with its line, and tells type-only ones apart', () => {
    const text = [
      "import { a } from './a';",
      "import type { B } from './b';",
      "import { type C, type D } from './c';",
      "import e, { type E } from './e';",
      "export { f } from './f';",
      "export type { G } from './g';",
      "export * from './h';",
      "import './side-effect';",
      "import i = require('./i');",
      "const j = () => import('./j');",
      "const k = require('k');",
      "type L = typeof import('./l');",
      "// import { m } from './m';",
      'const n = "import { n } from \'./n\'";',
    ].join('\n');
    expect(extractImports('x.ts', text)).toEqual([
      { specifier: './a', line: 1, kind: 'static' },
      { specifier: './b', line: 2, kind: 'type-only' },
      { specifier: './c', line: 3, kind: 'type-only' },
      { specifier: './e', line: 4, kind: 'static' },
      { specifier: './f', line: 5, kind: 'static' },
      { specifier: './g', line: 6, kind: 'type-only' },
      { specifier: './h', line: 7, kind: 'static' },
      { specifier: './side-effect', line: 8, kind: 'static' },
      { specifier: './i', line: 9, kind: 'static' },
      { specifier: './j', line: 10, kind: 'dynamic' },
      { specifier: 'k', line: 11, kind: 'dynamic' },
      { specifier: './l', line: 12, kind: 'type-only' },
    ]);
  });

  it('names packages and Node built-ins', () => {
    expect(packageName('node:fs/promises')).toBe('node:fs');
    expect(packageName('fs/promises')).toBe('node:fs');
    expect(packageName('@nx/devkit/internal')).toBe('@nx/devkit');
    expect(packageName('esbuild')).toBe('esbuild');
  });

  it('lists production files only: no tests, test support or fixtures', () => {
    const root = mkdtempSync(join(tmpdir(), 'agentdef-import-graph-'));
    try {
      for (const file of [
        'plugin/a.ts',
        'plugin/a.test.ts',
        'plugin/test-support.ts',
        'plugin/__test-support__/s.ts',
        'plugin/__fixtures__/f.ts',
        'plugin/schema/generated/t.ts',
        'plugin/b.mjs',
        'other/c.ts',
      ]) {
        mkdirSync(join(root, file, '..'), { recursive: true });
        writeFileSync(join(root, file), 'export {};\n');
      }
      expect(listSources(root, ['plugin', 'missing'])).toEqual(['plugin/a.ts', 'plugin/schema/generated/t.ts']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('puts files in layers by path: the target table and descriptors apart from their internals, the registry layout before the registry', () => {
    expect(layerOf('plugin/targets/targets.ts', ARCHITECTURE)).toBe('target-table');
    expect(layerOf('plugin/targets/hb3/target.ts', ARCHITECTURE)).toBe('target-table');
    expect(layerOf('plugin/targets/cloudflare-dynamic-worker/contract.ts', ARCHITECTURE)).toBe('target-contract');
    expect(layerOf('plugin/targets/hb3/emit.ts', ARCHITECTURE)).toBe('targets');
    expect(layerOf('plugin/targets/hb3/sub/target.ts', ARCHITECTURE)).toBe('targets');
    expect(layerOf('plugin/compiler/plan.ts', ARCHITECTURE)).toBe('compiler');
    expect(layerOf('plugin/schema/generated/agent-definition.types.ts', ARCHITECTURE)).toBe('definition');
    expect(layerOf('plugin/index.ts', ARCHITECTURE)).toBe('nx-shell');
    expect(layerOf('executors/promote/executor.ts', ARCHITECTURE)).toBe('nx-shell');
    expect(layerOf('plugin/cli/main.ts', ARCHITECTURE)).toBe('cli');
    expect(layerOf('plugin/operations/publish.ts', ARCHITECTURE)).toBe('operations');
    expect(layerOf('plugin/hosts/worker/entry.ts', ARCHITECTURE)).toBe('hosts');
    expect(layerOf('plugin/registry/registry-layout.ts', ARCHITECTURE)).toBe('registry-layout');
    expect(layerOf('plugin/registry/registry-index.ts', ARCHITECTURE)).toBe('registry');
    expect(layerOf('plugin/elsewhere.ts', ARCHITECTURE)).toBeUndefined();
  });
});

describe('import directions', () => {
  it('reports every rule the fixture tree breaks, with file, line and rule', () => {
    const graph = importGraph(forbidden, TOP_FOLDERS);
    expect(graph.files).not.toContain('plugin/compiler/test-support.ts');
    expect(graph.files).not.toContain('plugin/runtime/__test-support__/s.ts');
    expect(graph.files).not.toContain('plugin/compiler/__fixtures__/f.ts');
    expect(checkImports(graph, ARCHITECTURE).map(formatViolation)).toEqual([
      'executors/x/executor.ts:3: nx-shell-imports: nx-shell → cli (../../plugin/cli/main; static import; not allowed)',
      'generators/y/generator.ts:3: nx-shell-imports: nx-shell → cli (../../plugin/cli/main; type-only import; not allowed)',
      'plugin/cli/serve.ts:3: cli-imports: cli → targets (../targets/hb3/emit; static import; not allowed)',
      'plugin/compiler/compile.ts:4: compiler-imports: compiler → hosts (../hosts/node/h; static import; not allowed)',
      'plugin/compiler/compile.ts:6: compiler-packages: compiler → esbuild (esbuild; static import; only a lazy import() is allowed)',
      'plugin/definition/d.ts:4: definition-imports: definition → graph (../graph/g; type-only import; not allowed)',
      'plugin/definition/d.ts:5: definition-imports: definition → cli (../cli/main; static import; not allowed)',
      'plugin/graph/g.ts:4: graph-packages: graph → esbuild (esbuild; static import; not allowed)',
      'plugin/graph/g.ts:5: graph-imports: graph → compiler (../compiler/x; static import; not allowed)',
      'plugin/graph/g.ts:9: graph-packages: graph → ts-morph (ts-morph; dynamic import; not allowed)',
      'plugin/graph/registry-inputs.ts:4: graph-imports: graph → registry (../registry/r; static import; not allowed)',
      'plugin/host-contract/c.ts:4: host-contract-packages: host-contract → node:path (node:path; static import; not allowed)',
      'plugin/hosts/node/h.ts:6: hosts-imports: hosts → compiler (../../compiler/x; static import; not allowed)',
      'plugin/hosts/node/h.ts:7: hosts-imports: hosts → target-table (../../targets/targets; static import; not allowed)',
      'plugin/index.ts:3: nx-shell-imports: nx-shell → cli (./cli/main; dynamic import; not allowed)',
      'plugin/operations/publish.ts:4: operations-imports: operations → cli (../cli/main; static import; not allowed)',
      'plugin/operations/publish.ts:5: operations-imports: operations → nx-shell (../../executors/x/executor; static import; not allowed)',
      'plugin/registry/r.ts:3: registry-imports: registry → compiler (../compiler/x; static import; not allowed)',
      'plugin/registry/r.ts:4: registry-imports: registry → cli (../cli/main; static import; not allowed)',
      'plugin/registry/r.ts:5: registry-packages: registry → esbuild (esbuild; static import; not allowed)',
      'plugin/registry/registry-layout.ts:3: registry-layout-packages: registry-layout → node:path (node:path; static import; not allowed)',
      'plugin/registry/registry-layout.ts:4: registry-layout-imports: registry-layout → registry (./r; static import; not allowed)',
      'plugin/runtime/a.ts:5: runtime-imports: runtime → compiler (../compiler/x; static import; not allowed)',
      'plugin/runtime/a.ts:6: runtime-packages: runtime → node:fs (node:fs; static import; not allowed)',
      'plugin/stray.ts:1: unclassified: ? → ? (no layer claims this file)',
      'plugin/targets/hb3/target.ts:3: target-table-imports: target-table → targets (./emit; static import; only a lazy import() is allowed)',
      'plugin/targets/local-mac/emit.ts:3: no-sibling-target: plugin/targets/local-mac → plugin/targets/hb3 (../hb3/x; sibling folders stay apart)',
      'plugin/targets/local-mac/emit.ts:4: targets-imports: targets → cli (../../cli/main; static import; not allowed)',
    ]);
  });

  it('the real plugin/, executors/ and generators/ break none of the rules', () => {
    const graph = importGraph(repoRoot, TOP_FOLDERS);
    expect(graph.files.length).toBeGreaterThan(100);
    const lines = checkImports(graph, ARCHITECTURE).map(formatViolation);
    if (lines.length > 0)
      expect.fail(
        `${lines.length} import(s) run against the architecture (e2e/architecture/layers.ts):\n${lines.join('\n')}`,
      );
  });
});

describe('value import cycles', () => {
  it('finds a cycle of value imports and a file importing itself, not one closed by a type-only import or import()', () => {
    expect(valueImportCycles(importGraph(cycles, TOP_FOLDERS))).toEqual([
      ['plugin/graph/a.ts', 'plugin/graph/b.ts'],
      ['plugin/graph/self.ts'],
    ]);
  });

  it('the real plugin/, executors/ and generators/ have none', () => {
    const found = valueImportCycles(importGraph(repoRoot, TOP_FOLDERS));
    if (found.length > 0)
      expect.fail(`${found.length} value import cycle(s):\n${found.map((cycle) => cycle.join(' ⇄ ')).join('\n')}`);
    expect(found).toEqual([]);
  });
});
