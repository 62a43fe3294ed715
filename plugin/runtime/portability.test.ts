/**
 * The runtime is bundled into Workers, container entrypoints and launchers: it may use web-standard
 * APIs only. This test reads every runtime source file (tests and test support excluded) and fails
 * on an import of a Node built-in, Nx, the compiler, the graph layer or the adapters, and on Node
 * globals; then bundles the public entry for a neutral platform with nothing external, which fails
 * if anything reaches a Node built-in transitively.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

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
