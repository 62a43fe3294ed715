/**
 * What `npm pack` ships: no test support, fixtures, goldens or tests, and every package the
 * shipped JavaScript requires or imports is declared in the published package.json (or is a Node
 * built-in). Lists the tarball the global setup packed; run alone, builds and packs its own.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildAndPack, e2eRoot } from './support/pack';

/**
 * Bare imports allowed without a declaration, each for a stated reason:
 * bin/agentdef.cjs loads @swc-node/register only from a source checkout (when plugin/cli/main.js
 * does not exist), never from the installed package.
 */
const UNDECLARED_ALLOWED: Readonly<Record<string, readonly string[]>> = { 'bin/agentdef.cjs': ['@swc-node/register'] };

let tarball: string;
let unpacked: string;
const cleanup: string[] = [];
let entries: string[];

beforeAll(() => {
  const provided = inject('agentdefTarball') as string | undefined;
  tarball = provided ?? buildAndPack();
  if (!provided) cleanup.push(dirname(tarball));
  entries = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line !== '' && !line.endsWith('/'))
    .map((line) => line.replace(/^package\//, ''));
  unpacked = mkdtempSync(join(e2eRoot(), 'contents-'));
  cleanup.push(unpacked);
  execFileSync('tar', ['-xzf', tarball, '-C', unpacked]);
});
afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

/** Bare specifiers of `require()`/`import()` calls and import/export declarations, by package name. */
function importedPackages(file: string, text: string): string[] {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.mts') ? ts.ScriptKind.TS : ts.ScriptKind.JS,
  );
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    const typeOnly =
      (ts.isImportDeclaration(node) && node.importClause?.isTypeOnly) ||
      (ts.isExportDeclaration(node) && node.isTypeOnly);
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      !typeOnly &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.arguments.length >= 1 && ts.isStringLiteralLike(node.arguments[0]!)) {
      const callee = node.expression;
      if ((ts.isIdentifier(callee) && callee.text === 'require') || callee.kind === ts.SyntaxKind.ImportKeyword)
        specifiers.push((node.arguments[0] as ts.StringLiteral).text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers
    .filter((s) => !s.startsWith('.') && !s.startsWith('/'))
    .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!));
}

const isBuiltin = (name: string) => name.startsWith('node:') || builtinModules.includes(name);

describe('the packed package', () => {
  it('ships the entry points and no test support, fixtures, goldens or tests', () => {
    expect(entries).toEqual(
      expect.arrayContaining([
        'package.json',
        'plugin/index.js',
        'plugin/index.d.ts',
        'plugin/cli/main.js',
        'bin/agentdef.cjs',
        'generators.json',
        'executors.json',
      ]),
    );
    // What compiled Workers bundle ships as ES modules too (`.mts`), so esbuild tree-shakes a
    // Worker down to the runtime parts its entry names (the CommonJS `.js` cannot be).
    expect(entries).toEqual(
      expect.arrayContaining([
        'plugin/runtime/index.mts',
        'plugin/runtime/run-agent.mts',
        'plugin/runtime/a2a-handler.mts',
      ]),
    );
    const testOnly = entries.filter(
      (entry) =>
        /(^|\/)(__test-support__|__fixtures__|__golden__|__tmpl__)(\/|$)/.test(entry) ||
        /\.(test|spec)\.(d\.ts|[cm]?[jt]s)$/.test(entry) ||
        /(^|\/)test-support\.(js|d\.ts)$/.test(entry),
    );
    expect(testOnly).toEqual([]);
  });

  it('ships every module a compiled Worker bundles as an ES module too, in every folder of the runtime', () => {
    // A folder left out (telemetry/, hybrid/ were) is bundled as CommonJS, whole: 125 KiB instead of 79 for text-stats.
    const bundled = entries.filter(
      (entry) =>
        /^plugin\/(runtime\/.*|hosts\/worker\/[^/]*|host-contract\/[^/]*|targets\/[^/]+\/contract)\.js$/.test(entry) &&
        !/(^|\/)__test-support__\//.test(entry),
    );
    expect(bundled.length).toBeGreaterThan(50);
    expect(bundled.filter((entry) => !entries.includes(entry.replace(/\.js$/, '.mts')))).toEqual([]);
  });

  it('ships the OASF definitions export oasf validates against, with their licence, NOTICE and sources note', () => {
    const folder = 'plugin/definition/oasf/definitions';
    for (const file of ['LICENSE.md', 'SOURCES.md', 'schema/NOTICE', 'schema/version.json', 'schema/dictionary.json'])
      expect(entries).toContain(`${folder}/${file}`);
    const source = join(__dirname, '..', folder, 'schema', 'skills');
    const skills = entries.filter((entry) => entry.startsWith(`${folder}/schema/skills/`));
    expect(skills.length).toBe(
      readdirSync(source, { recursive: true }).filter((n) => String(n).endsWith('.json')).length,
    );
  });

  it('requires only declared dependencies and Node built-ins', () => {
    const manifest = JSON.parse(readFileSync(join(unpacked, 'package', 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string> | undefined
    >;
    const declared = new Set([
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
      ...Object.keys(manifest.optionalDependencies ?? {}),
    ]);
    const undeclared: string[] = [];
    for (const entry of entries.filter((e) => /\.(c|m)?js$|\.mts$/.test(e))) {
      const text = readFileSync(join(unpacked, 'package', entry), 'utf8');
      for (const name of new Set(importedPackages(entry, text))) {
        if (isBuiltin(name) || declared.has(name) || UNDECLARED_ALLOWED[entry]?.includes(name)) continue;
        undeclared.push(`${entry}: ${name}`);
      }
    }
    expect(undeclared).toEqual([]);
    expect(declared.has('zod')).toBe(false); // test support used it; the package never should
  });

  it("ships the tutorial's model recording, byte for byte, where the page's commands name it (node_modules/agentdef/recordings/your-first-agent)", () => {
    const source = join(__dirname, '..', 'recordings', 'your-first-agent');
    const files = readdirSync(source).sort();
    expect(files).toContain('README.md');
    expect(files.filter((name) => /^[0-9a-f]{64}\.json$/.test(name)).length).toBeGreaterThanOrEqual(4);
    expect(entries.filter((entry) => entry.startsWith('recordings/')).sort()).toEqual(
      files.map((name) => `recordings/your-first-agent/${name}`),
    );
    for (const name of files)
      expect(readFileSync(join(unpacked, 'package', 'recordings', 'your-first-agent', name), 'utf8')).toBe(
        readFileSync(join(source, name), 'utf8'),
      );
    // The README's link to the format resolves inside the package.
    expect(entries).toContain('docs/offline-models.md');
  });
});
