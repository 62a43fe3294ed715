/**
 * The composition independence guard (the seed's clean-room check), both ways round:
 * - fixtures the scanner must catch — every framework by import, re-export, dynamic import,
 *   require, a plain string, each package.json dependency section, aliases and VCS locators,
 *   lock-file keys nested at any depth, installed names, and requirements lines — so the check can
 *   fail; and near-misses it must let pass (`agent-base`, the MCP and A2A SDKs, prose);
 * - the real repository: every file of plugin/application and everything it imports, transitively,
 *   every package.json and package-lock.json, the installed node_modules, and any requirements
 *   file, with counts that prove each source of evidence was actually read.
 * Fixture texts are assembled at run time, so this file never itself contains an import of a
 * framework (the guard reads its own imports too).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AGENT_FRAMEWORKS,
  frameworkOfLocator,
  frameworkOfPackage,
  relativeImports,
  scanIndependence,
  scanInstalledPackages,
  scanLockFile,
  scanPackageManifest,
  scanRequirements,
  scanSource,
} from './independence-guard';

const ROOT = resolve(__dirname, '../..');
const GUARD_FILES = new Set(['plugin/application/independence-guard.ts', 'plugin/application/independence.test.ts']);

/** One package per framework, as it is published. */
const FRAMEWORK_PACKAGES: ReadonlyArray<readonly [string, string]> = [
  ['langchain', 'LangChain'],
  ['@langchain/core', 'LangChain'],
  ['@langchain/openai', 'LangChain'],
  ['langchain-community', 'LangChain'],
  ['langsmith', 'LangChain'],
  ['@langchain/langgraph', 'LangChain'],
  ['langgraph', 'LangGraph'],
  ['langgraph-checkpoint', 'LangGraph'],
  ['deer-flow', 'DeerFlow'],
  ['deerflow', 'DeerFlow'],
  ['llamaindex', 'LlamaIndex'],
  ['llama-index', 'LlamaIndex'],
  ['llama_index.core', 'LlamaIndex'],
  ['@llamaindex/openai', 'LlamaIndex'],
  ['crewai', 'CrewAI'],
  ['crewai-tools', 'CrewAI'],
  ['autogen-agentchat', 'AutoGen'],
  ['pyautogen', 'AutoGen'],
  ['semantic-kernel', 'Semantic Kernel'],
  ['Semantic_Kernel', 'Semantic Kernel'],
  ['haystack-ai', 'Haystack'],
  ['farm-haystack', 'Haystack'],
  ['@mastra/core', 'Mastra'],
  ['@openai/agents', 'OpenAI Agents SDK'],
  ['openai-agents', 'OpenAI Agents SDK'],
  ['smolagents', 'smolagents'],
  ['pydantic-ai', 'PydanticAI'],
  ['dspy-ai', 'DSPy'],
];

/** Names that look close but are not agent frameworks. */
const NEAR_MISSES = [
  'agent-base',
  'https-proxy-agent',
  'tunnel-agent',
  '@modelcontextprotocol/sdk',
  '@a2a-js/sdk',
  'chain',
  'lang',
  'langs',
  'haystacks',
  'kernel',
  'semantic',
  'crew',
  'openai',
  '@openai/sdk',
  'llama',
  'index',
  'ajv',
  'canonicalize',
];

const q = (text: string) => `'${text}'`;
const importLine = (specifier: string) => ['imp' + 'ort { x }', 'from', q(specifier)].join(' ');

describe('the scanner catches every framework', () => {
  it.each(FRAMEWORK_PACKAGES)('knows %s as %s', (name, framework) => {
    expect(frameworkOfPackage(name)).toBe(framework);
    expect(frameworkOfPackage(name.toUpperCase())).toBe(framework);
  });

  it('covers each framework the seed and the issue name', () => {
    const named = AGENT_FRAMEWORKS.map((framework) => framework.name);
    for (const name of [
      'LangChain',
      'LangGraph',
      'DeerFlow',
      'LlamaIndex',
      'CrewAI',
      'AutoGen',
      'Semantic Kernel',
      'Haystack',
    ])
      expect(named).toContain(name);
  });

  it.each(NEAR_MISSES)('lets the near miss %s pass', (name) => {
    expect(frameworkOfPackage(name)).toBeUndefined();
    expect(frameworkOfLocator(name)).toBeUndefined();
  });

  const sourceForms: ReadonlyArray<readonly [string, (spec: string) => string]> = [
    ['a static import', (spec) => importLine(spec)],
    ['a type-only import', (spec) => ['imp' + 'ort type { X }', 'from', q(spec)].join(' ')],
    ['a side-effect import', (spec) => `imp${'ort'} ${q(spec)};`],
    ['a re-export', (spec) => ['exp' + 'ort * as x', 'from', q(spec)].join(' ')],
    ['a dynamic import', (spec) => `await imp${'ort'}(${q(spec)})`],
    ['a require', (spec) => `const x = req${'uire'}(${q(spec)})`],
    ['a require.resolve', (spec) => `req${'uire'}.resolve(${q(spec)})`],
    ['a plain string later imported', (spec) => `const name = ${JSON.stringify(spec)};\nawait import(name);`],
    ['a template string', (spec) => `const name = \`${spec}\`;`],
    ['a multi-line import', (spec) => `imp${'ort'} {\n  a,\n  b,\n} from ${q(spec)};`],
  ];

  it.each(sourceForms)('in source, by %s, located to its line', (_, form) => {
    for (const [spec, framework] of [
      ['langchain/llms/openai', 'LangChain'],
      ['@langchain/core/messages', 'LangChain'],
      ['@langchain/langgraph', 'LangChain'],
      ['llamaindex', 'LlamaIndex'],
      ['npm:crewai@0.1.0', 'CrewAI'],
      ['https://esm.sh/langgraph@0.2', 'LangGraph'],
    ] as const) {
      const text = `// header\n\n${form(spec)}\n`;
      const findings = scanSource({ path: 'plugin/application/evil.ts', text });
      expect(
        findings.map((f) => f.framework),
        `${spec}: ${text}`,
      ).toContain(framework);
      expect(findings[0]?.line).toBeGreaterThanOrEqual(3);
    }
  });

  it('still reads the imports of the guard’s own files, but not their strings', () => {
    expect(scanSource({ path: 'guard.ts', text: importLine('@langchain/core') }, { withStrings: false })).toHaveLength(
      1,
    );
    expect(scanSource({ path: 'guard.ts', text: `const deny = ${q('langchain')};` }, { withStrings: false })).toEqual(
      [],
    );
    expect(scanSource({ path: 'plain.ts', text: `const deny = ${q('langchain')};` })).toHaveLength(1);
  });

  it('does not report prose in comments, or near-miss imports', () => {
    const text = [
      '/** Independent of LangChain, LangGraph and DeerFlow: none is imported. */',
      '// we do not use crewai',
      importLine('agent-base'),
      importLine('@modelcontextprotocol/sdk/client/index.js'),
      importLine('node:fs'),
    ].join('\n');
    expect(scanSource({ path: 'ok.ts', text })).toEqual([]);
  });

  const sections = [
    'dependencies',
    'devDependencies',
    'peerDependencies',
    'optionalDependencies',
    'overrides',
    'resolutions',
  ];
  it.each(sections)('in package.json %s, by name, alias and locator', (section) => {
    for (const [entry, framework] of [
      [{ '@langchain/core': '0.3.0' }, 'LangChain'],
      [{ 'innocent-alias': 'npm:@langchain/core@0.3.0' }, 'LangChain'],
      [{ 'innocent-vcs': 'github:langchain-ai/langgraphjs' }, 'LangChain'],
      [{ 'innocent-git': 'git+https://github.com/run-llama/LlamaIndexTS.git#v0.5' }, 'LlamaIndex'],
      [{ 'innocent-url': 'https://registry.example.invalid/crewai/-/crewai-1.0.0.tgz' }, 'CrewAI'],
      [{ 'innocent-file': 'file:../vendor/deer-flow' }, 'DeerFlow'],
    ] as const) {
      const text = JSON.stringify({ name: 'x', [section]: entry }, null, 2);
      const findings = scanPackageManifest({ path: 'package.json', text });
      expect(
        findings.map((f) => f.framework),
        `${section}: ${text}`,
      ).toEqual([framework]);
      expect(findings[0]?.line).toBe(4);
    }
  });

  it('in nested overrides, pnpm overrides and bundled dependency lists', () => {
    const text = JSON.stringify({
      overrides: { foo: { '@llamaindex/core': '1.0.0' } },
      pnpm: { overrides: { 'bar>semantic-kernel': '1.0.0' } },
      bundleDependencies: ['haystack-ai'],
    });
    expect(scanPackageManifest({ path: 'package.json', text }).map((f) => f.framework)).toEqual([
      'Haystack',
      'LlamaIndex',
      'Semantic Kernel',
    ]);
  });

  it('in lock-file keys at any depth, names, resolved locators and a version-1 tree', () => {
    const lock = {
      lockfileVersion: 3,
      packages: {
        '': { name: 'app', dependencies: { ajv: '8' } },
        'node_modules/ajv': { version: '8.0.0' },
        'node_modules/a/node_modules/b/node_modules/@langchain/core': { version: '0.3.0' },
        'node_modules/innocent': { name: 'crewai', version: '1.0.0' },
        'node_modules/innocent2': {
          version: '1.0.0',
          resolved: 'git+ssh://git@github.com/bytedance/deer-flow.git#abc',
        },
        'node_modules/innocent3': { version: '1.0.0', dependencies: { 'autogen-core': '^0.4' } },
      },
      dependencies: {
        'llama-index': { version: '0.1.0', dependencies: { deep: { version: '1', requires: { 'haystack-ai': '2' } } } },
      },
    };
    const frameworks = scanLockFile({ path: 'package-lock.json', text: JSON.stringify(lock, null, 2) }).map(
      (f) => f.framework,
    );
    expect(frameworks).toEqual(['LangChain', 'CrewAI', 'DeerFlow', 'AutoGen', 'LlamaIndex', 'Haystack']);
  });

  it('among installed package names', () => {
    expect(
      scanInstalledPackages(['ajv', 'agent-base', '@langchain/core', 'langgraph', '@types/node']).map(
        (f) => f.evidence,
      ),
    ).toEqual(['@langchain/core', 'langgraph']);
  });

  it('in requirements files, by name, extras, markers, eggs and VCS or URL locators', () => {
    const text = [
      '# requirements for a tool',
      'requests==2.32.0',
      'LangChain[all]>=0.2 ; python_version >= "3.10"',
      'llama_index.core~=0.10',
      '-e git+https://github.com/crewAIInc/crewAI.git@main#egg=crewai',
      'innocent @ https://files.example.invalid/haystack_ai-2.0.0-py3-none-any.whl',
      'git+https://github.com/bytedance/deer-flow.git',
      '--index-url https://pypi.example.invalid/simple',
      'semantic-kernel  # pinned below',
      'numpy',
    ].join('\n');
    const findings = scanRequirements({ path: 'tools/requirements.txt', text });
    expect(findings.map((f) => [f.line, f.framework])).toEqual([
      [3, 'LangChain'],
      [4, 'LlamaIndex'],
      [5, 'CrewAI'],
      [6, 'Haystack'],
      [7, 'DeerFlow'],
      [9, 'Semantic Kernel'],
    ]);
  });

  it('fails closed on a manifest or lock file it cannot read', () => {
    expect(scanPackageManifest({ path: 'package.json', text: '{ not json' })).toHaveLength(1);
    expect(scanLockFile({ path: 'package-lock.json', text: '' })).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------------------------
// The real repository.

function toPosix(path: string): string {
  return path.split('\\').join('/');
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

/** The file a relative specifier names, as the TypeScript resolver would find it. */
function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.mts`, `${base}.js`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** plugin/application and every file it imports, transitively, by relative import. */
function compositionImportGraph(): string[] {
  const start = filesUnder(join(ROOT, 'plugin/application'));
  const seen = new Set<string>(start);
  const queue = [...start];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (!/\.(?:ts|mts|js|mjs|cjs)$/.test(file)) continue;
    for (const specifier of relativeImports(readFileSync(file, 'utf8'))) {
      const target = resolveImport(file, specifier);
      if (target !== undefined && !seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return [...seen].sort();
}

/** The names of every installed package, nested node_modules included. */
function installedPackageNames(dir: string, depth = 0): string[] {
  if (!existsSync(dir) || depth > 16) return [];
  const names: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || !entry.isDirectory()) continue;
    const packageDirs = entry.name.startsWith('@')
      ? readdirSync(join(dir, entry.name), { withFileTypes: true })
          .filter((inner) => inner.isDirectory())
          .map((inner) => `${entry.name}/${inner.name}`)
      : [entry.name];
    for (const name of packageDirs) {
      names.push(name);
      names.push(...installedPackageNames(join(dir, name, 'node_modules'), depth + 1));
    }
  }
  return names;
}

function repositoryFiles(predicate: (name: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (['node_modules', '.git', '.nx', 'dist', 'tmp', 'coverage'].includes(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && predicate(entry.name)) out.push(path);
    }
  };
  walk(ROOT);
  return out;
}

describe('the repository is independent of every agent framework', () => {
  it('holds no framework in the composition code, its import graph, manifests, lock files, node_modules or requirements', () => {
    const sources = compositionImportGraph().map((path) => {
      const name = toPosix(relative(ROOT, path));
      return { path: name, text: readFileSync(path, 'utf8'), withStrings: !GUARD_FILES.has(name) };
    });
    const read = (path: string) => ({ path: toPosix(relative(ROOT, path)), text: readFileSync(path, 'utf8') });
    const packageManifests = repositoryFiles((name) => name === 'package.json').map(read);
    const lockFiles = repositoryFiles((name) => name === 'package-lock.json' || name === 'npm-shrinkwrap.json').map(
      read,
    );
    const requirements = repositoryFiles((name) => /^(?:.*requirements.*|constraints.*)\.txt$/i.test(name)).map(read);
    const installedPackages = installedPackageNames(join(ROOT, 'node_modules'));

    const findings = scanIndependence({ sources, packageManifests, lockFiles, installedPackages, requirements });
    expect(findings).toEqual([]);

    // The guard looked: the composition folder, what it imports from other layers, and the whole install.
    expect(sources.some((file) => file.path === 'plugin/application/pack-schema-dialect.ts')).toBe(true);
    expect(sources.some((file) => file.path.startsWith('plugin/definition/'))).toBe(true);
    expect(
      sources
        .filter((file) => file.withStrings === false)
        .map((file) => file.path)
        .sort(),
    ).toEqual([...GUARD_FILES].sort());
    expect(packageManifests.map((file) => file.path)).toContain('package.json');
    expect(lockFiles.map((file) => file.path)).toContain('package-lock.json');
    expect(Object.keys(JSON.parse(lockFiles[0]?.text ?? '{}').packages ?? {}).length).toBeGreaterThan(100);
    expect(sources.length).toBeGreaterThan(10);
    expect(installedPackages.length).toBeGreaterThan(100);
    expect(installedPackages).toContain('ajv');
    expect(installedPackages).toContain('@modelcontextprotocol/sdk');
  });
});
