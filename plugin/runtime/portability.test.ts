/**
 * The runtime is bundled into Workers, container entrypoints and launchers: it may use the portable
 * subset only (docs/decisions/0007-portable-subset.md). This test reads every runtime source file
 * (tests and test support excluded) and fails on an import of a Node built-in, Nx, a package or a
 * file outside plugin/runtime, and on Node globals; type-checks them and fails on any host global
 * (one not from ECMAScript's own library) that the WinterTC Minimum Common API does not list
 * (portable-subset.ts, printed in README.md); then bundles the public entry for a neutral platform
 * with nothing external, which fails if anything reaches a Node built-in transitively.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  PORTABLE_GLOBAL_FUNCTIONS,
  PORTABLE_GLOBAL_MEMBERS,
  PORTABLE_GLOBALS,
  PORTABLE_INTERFACES,
} from './portable-subset';

const here = __dirname;

function runtimeSources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) {
      if (name === '__test-support__' || name === 'node_modules') continue;
      out.push(...runtimeSources(full));
    } else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

function forbidden(specifier: string, file: string): string | undefined {
  if (specifier.startsWith('node:')) return 'a Node built-in';
  if (
    /^(fs|path|os|crypto|http|https|net|url|util|stream|child_process|worker_threads|buffer|events|zlib|tls|dns)(\/|$)/.test(
      specifier,
    )
  )
    return 'a Node built-in';
  if (specifier === 'nx' || specifier.startsWith('nx/') || specifier.startsWith('@nx/')) return 'Nx';
  if (!specifier.startsWith('.')) return 'a package (the runtime is dependency-free)';
  const target = relative(here, join(file, '..', specifier));
  if (target.startsWith('..')) return `outside plugin/runtime (${target})`;
  return undefined;
}

const REPO = join(here, '..', '..');

/** Whether `id` names a member (`x.id`, `{ id: … }`, a method or property declaration) rather than a variable. */
function isMemberName(id: ts.Identifier): boolean {
  const p = id.parent;
  return (
    ((ts.isPropertyAccessExpression(p) ||
      ts.isPropertyAssignment(p) ||
      ts.isMethodDeclaration(p) ||
      ts.isPropertyDeclaration(p) ||
      ts.isPropertySignature(p) ||
      ts.isMethodSignature(p) ||
      ts.isGetAccessorDeclaration(p) ||
      ts.isSetAccessorDeclaration(p)) &&
      p.name === id) ||
    (ts.isBindingElement(p) && p.propertyName === id) ||
    ts.isQualifiedName(p)
  );
}

/** Whether `node` sits in a type (erased: it cannot reach a host at run time). */
function inType(node: ts.Node): boolean {
  for (let p: ts.Node | undefined = node.parent; p !== undefined; p = p.parent) {
    if (ts.isTypeNode(p) || ts.isInterfaceDeclaration(p) || ts.isTypeAliasDeclaration(p)) return true;
    if (ts.isStatement(p) || ts.isSourceFile(p)) return false;
  }
  return false;
}

const ECMASCRIPT_LIB = /[\\/]typescript[\\/]lib[\\/]lib\.(es[0-9a-z.]+|decorators(\.legacy)?)\.d\.ts$/;

/**
 * Every use of a host global in `files`: an identifier in a value position whose symbol is declared
 * only in declaration files (a lib or @types), none of them ECMAScript's own. Members of
 * PORTABLE_GLOBAL_MEMBERS' globals are reported as `global.member`.
 */
function hostGlobalUses(files: readonly string[], virtual: Readonly<Record<string, string>> = {}): string[] {
  const config = ts.parseJsonConfigFileContent(
    ts.readConfigFile(join(REPO, 'tsconfig.json'), ts.sys.readFile).config,
    ts.sys,
    REPO,
  );
  const host = ts.createCompilerHost(config.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    virtual[name] !== undefined
      ? ts.createSourceFile(name, virtual[name]!, language)
      : getSourceFile(name, language, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => virtual[name] !== undefined || fileExists(name);
  const program = ts.createProgram([...files, ...Object.keys(virtual)], config.options, host);
  const checker = program.getTypeChecker();
  const uses = new Set<string>();
  for (const file of [...files, ...Object.keys(virtual)]) {
    const source = program.getSourceFile(file)!;
    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node) && !isMemberName(node) && !inType(node)) {
        const declarations = checker.getSymbolAtLocation(node)?.declarations ?? [];
        const files = declarations.map((d) => d.getSourceFile());
        if (
          declarations.length > 0 &&
          files.every((f) => f.isDeclarationFile) &&
          !files.some((f) => ECMASCRIPT_LIB.test(f.fileName))
        ) {
          const parent = node.parent;
          const members = PORTABLE_GLOBAL_MEMBERS[node.text];
          uses.add(
            members !== undefined && ts.isPropertyAccessExpression(parent) && parent.expression === node
              ? `${node.text}.${parent.name.text}`
              : node.text,
          );
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return [...uses].sort();
}

/** Whether one host global use (`fetch`, `performance.now`) is in the portable subset. */
function portable(use: string): boolean {
  const [name, member] = use.split('.') as [string, string | undefined];
  const members = PORTABLE_GLOBAL_MEMBERS[name];
  if (members !== undefined) return member !== undefined && members.includes(member);
  return PORTABLE_GLOBALS.includes(name);
}

/** The names README.md lists under one bold label ("**Interfaces:** `A`, `B`."). */
function readmeList(readme: string, label: string): string[] {
  const line = readme.split('\n').find((l) => l.startsWith(`- **${label}:**`));
  expect(line, label).toBeDefined();
  return [...line!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
}

describe('portable runtime', () => {
  const files = runtimeSources(here);

  it('has sources to check', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it('imports nothing from Node built-ins, Nx, the compiler, the graph or the adapters', () => {
    const problems: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(IMPORT)) {
        const specifier = match[1] ?? match[2] ?? match[3] ?? match[4];
        if (!specifier) continue;
        const why = forbidden(specifier, file);
        if (why) problems.push(`${relative(here, file)}: imports ${specifier} (${why})`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('uses no Node globals (Buffer, process, require, __dirname)', () => {
    const problems: string[] = [];
    for (const file of files) {
      const code = readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/.*$/gm, '');
      for (const pattern of [/\bBuffer\./, /\bprocess\./, /\brequire\(/, /\b__dirname\b/, /\bsetImmediate\(/]) {
        if (pattern.test(code)) problems.push(`${relative(here, file)}: ${pattern}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('names no host global outside the WinterTC Minimum Common API (ECMAScript built-ins aside)', () => {
    const uses = hostGlobalUses(files);
    expect(uses).toContain('fetch');
    expect(uses.filter((use) => !portable(use))).toEqual([]);
  });

  it('the global scan catches what it must refuse, and passes what the subset lists', () => {
    const probe = join(here, 'portability-probe.virtual.ts');
    const uses = hostGlobalUses([], {
      [probe]: [
        'export const a = Buffer.from("x");',
        'export const b = process.env;',
        'export const c = performance.now() + performance.timeOrigin;',
        'performance.mark("m");',
        'export const d = navigator.userAgent;',
        'export const e = new URL("https://example.com").host;',
        'export const f = structuredClone({ n: [1] });',
        'export const g = JSON.stringify(new Map());',
        'setImmediate(() => {});',
        'export const h = new TextEncoder();',
      ].join('\n'),
    });
    expect(uses).toEqual([
      'Buffer',
      'TextEncoder',
      'URL',
      'navigator.userAgent',
      'performance.mark',
      'performance.now',
      'performance.timeOrigin',
      'process',
      'setImmediate',
      'structuredClone',
    ]);
    expect(uses.filter((use) => !portable(use))).toEqual(['Buffer', 'performance.mark', 'process', 'setImmediate']);
  });

  it('README.md prints the portable subset exactly as portable-subset.ts holds it', () => {
    const readme = readFileSync(join(here, 'README.md'), 'utf8');
    expect(readmeList(readme, 'Interfaces')).toEqual([...PORTABLE_INTERFACES]);
    expect(readmeList(readme, 'Global functions and properties')).toEqual([...PORTABLE_GLOBAL_FUNCTIONS]);
    expect(readmeList(readme, 'Only these members')).toEqual(
      Object.entries(PORTABLE_GLOBAL_MEMBERS).flatMap(([name, members]) => members.map((m) => `${name}.${m}`)),
    );
  });

  it('the scan catches the imports it must refuse', () => {
    const file = join(here, 'x.ts');
    expect(forbidden('node:http', file)).toBeDefined();
    expect(forbidden('@nx/devkit', file)).toBeDefined();
    expect(forbidden('../compiler/plan', file)).toBeDefined();
    expect(forbidden('../graph/create-nodes', file)).toBeDefined();
    expect(forbidden('../targets/hb3/emit', file)).toBeDefined();
    expect(forbidden('./providers/openai-chat', file)).toBeUndefined();
  });

  it('bundles for a neutral (non-Node) platform with nothing external', async () => {
    const result = await build({
      entryPoints: [join(here, 'index.ts')],
      bundle: true,
      write: false,
      platform: 'neutral',
      format: 'esm',
      target: 'es2022',
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    const code = result.outputFiles[0]!.text;
    expect(code).not.toMatch(/from ["']node:/);
    expect(code.length).toBeGreaterThan(10_000);
  });
});
