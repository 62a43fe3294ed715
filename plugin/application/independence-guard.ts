/**
 * The composition independence guard: application composition is an independent implementation,
 * and nothing it is built from may depend on an agent framework (LangChain and `@langchain/*`,
 * LangGraph, DeerFlow, LlamaIndex, CrewAI, AutoGen, Semantic Kernel, Haystack, and the others in
 * AGENT_FRAMEWORKS). This module is the scanner, pure over texts and names so that a test can feed
 * it a fixture it must catch; independence.test.ts runs it over the real repository.
 *
 * What it reads, and where a framework can hide in each:
 * - source text: every module specifier (`import … from`, `export … from`, `import()`,
 *   `require()`, `require.resolve()`), and — unless the file is one of the guard's own, which hold
 *   the deny-list — every string literal, so an import assembled at run time from a plain string
 *   is caught too;
 * - package manifests: the names and the version locators of `dependencies`, `devDependencies`,
 *   `peerDependencies`, `optionalDependencies`, `bundleDependencies`, `overrides`, `resolutions`
 *   and `pnpm.overrides` (an alias `npm:langchain@1` or a locator `github:langchain-ai/…` counts);
 * - lock files: every `packages` key (`node_modules/…/node_modules/@langchain/core`), each
 *   entry's `name`, `resolved` and dependency maps, and a version-1 `dependencies` tree;
 * - installed package names (what `node_modules` holds);
 * - requirements files: each requirement's name and any VCS or URL locator (`git+https://…`,
 *   `#egg=…`).
 * Names are compared after PEP 503 normalisation (case-folded, runs of `-`, `_`, `.` as one `-`).
 * A framework mentioned in prose (a comment saying there is none) is not a dependency and is not
 * reported; a string literal is.
 */

export interface AgentFramework {
  name: string;
  /** Normalised package names and locator segments that belong to it. */
  names: RegExp;
  /** npm scopes it publishes under, without `@`. */
  scopes: readonly string[];
  /** Scoped packages of a shared scope that belong to it (`openai/agents`). */
  scopedNames?: readonly string[];
}

export const AGENT_FRAMEWORKS: readonly AgentFramework[] = [
  { name: 'LangChain', names: /^(?:langchain(?:js)?|langchain-.+|langsmith|langserve)$/, scopes: ['langchain'] },
  { name: 'LangGraph', names: /^(?:langgraph(?:js)?|langgraph-.+)$/, scopes: ['langgraph'] },
  { name: 'DeerFlow', names: /^(?:deer-?flow|deer-flow-.+)$/, scopes: ['deerflow', 'deer-flow'] },
  { name: 'LlamaIndex', names: /^(?:llama-?index(?:ts)?|llama-?index-.+)$/, scopes: ['llamaindex'] },
  { name: 'CrewAI', names: /^crewai(?:-.+)?$/, scopes: ['crewai'] },
  { name: 'AutoGen', names: /^(?:autogen(?:-.+)?|pyautogen|ag2)$/, scopes: ['autogen'] },
  { name: 'Semantic Kernel', names: /^semantic-?kernel(?:-.+)?$/, scopes: ['semantic-kernel'] },
  { name: 'Haystack', names: /^(?:haystack|haystack-.+|farm-haystack)$/, scopes: ['haystack'] },
  { name: 'Mastra', names: /^mastra(?:-.+)?$/, scopes: ['mastra'] },
  { name: 'OpenAI Agents SDK', names: /^openai-agents(?:-.+)?$/, scopes: [], scopedNames: ['openai/agents'] },
  { name: 'Google ADK', names: /^google-adk$/, scopes: [], scopedNames: ['google/adk'] },
  { name: 'VoltAgent', names: /^voltagent$/, scopes: ['voltagent'] },
  { name: 'smolagents', names: /^smolagents$/, scopes: [] },
  { name: 'PydanticAI', names: /^pydantic-ai(?:-.+)?$/, scopes: [] },
  { name: 'Agno', names: /^(?:agno|phidata)$/, scopes: [] },
  { name: 'DSPy', names: /^dspy(?:-ai)?$/, scopes: [] },
  { name: 'MetaGPT', names: /^metagpt$/, scopes: [] },
  { name: 'CAMEL', names: /^camel-ai$/, scopes: [] },
  { name: 'AgentScope', names: /^agentscope$/, scopes: [] },
  { name: 'Langflow', names: /^langflow(?:-.+)?$/, scopes: [] },
  { name: 'Flowise', names: /^flowise(?:-.+)?$/, scopes: [] },
];

export interface IndependenceFinding {
  /** The file (or `node_modules`) where the dependency was found. */
  file: string;
  /** 1-based line, when the evidence has one. */
  line?: number;
  /** What kind of evidence: an import, a string, a manifest section, a lock key, … */
  where: string;
  framework: string;
  /** The specifier, name or locator, as written. */
  evidence: string;
}

export interface TextFile {
  path: string;
  text: string;
}

/** PEP 503: case-folded, every run of `-`, `_` and `.` one `-`. */
export function normalisePackageName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

/** The framework a package name (`@langchain/core`, `llama_index.core`, `CrewAI`) belongs to. */
export function frameworkOfPackage(name: string): string | undefined {
  const trimmed = name.trim();
  const scoped = /^@([^/]+)\/([^/@]+)/.exec(trimmed);
  if (scoped) {
    const scope = normalisePackageName(scoped[1] ?? '');
    const bare = normalisePackageName(scoped[2] ?? '');
    for (const framework of AGENT_FRAMEWORKS) {
      if (
        framework.scopes.includes(scope) ||
        framework.names.test(bare) ||
        framework.scopedNames?.some((pair) => `${scope}/${bare}`.startsWith(pair))
      )
        return framework.name;
    }
    return undefined;
  }
  const bare = normalisePackageName(trimmed.split('/')[0] ?? '');
  const dotted = normalisePackageName(trimmed.split(/[./]/)[0] ?? '');
  return AGENT_FRAMEWORKS.find((framework) => framework.names.test(bare) || framework.names.test(dotted))?.name;
}

/**
 * The framework a locator points at: a module specifier (`langchain/llms`, `npm:@langchain/core@1`),
 * a VCS or URL locator (`git+https://github.com/langchain-ai/langchainjs.git`, `github:…`,
 * `https://esm.sh/crewai`), or a version string that is one of those.
 */
export function frameworkOfLocator(locator: string): string | undefined {
  const text = locator.trim().toLowerCase();
  if (text.length === 0 || text.startsWith('node:')) return undefined;
  const direct = frameworkOfPackage(text.replace(/^npm:/, '').replace(/(.)@[^/@]*$/, '$1'));
  if (direct !== undefined) return direct;
  for (const framework of AGENT_FRAMEWORKS)
    for (const pair of framework.scopedNames ?? [])
      if (text.includes(`@${pair}`) || text.includes(`/${pair}`)) return framework.name;
  const segments = text.split(/[/:@#?&=+\s]+/).filter((segment) => segment.length > 0);
  for (const segment of segments) {
    const name = normalisePackageName(segment.replace(/\.git$/, '').replace(/\.(?:tgz|tar\.gz|zip|whl)$/, ''));
    const versionless = name.replace(/-v?\d[\w.-]*$/, '');
    const found = AGENT_FRAMEWORKS.find(
      (framework) => framework.names.test(name) || framework.names.test(versionless) || framework.scopes.includes(name),
    );
    if (found !== undefined) return found.name;
  }
  return undefined;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index && i < text.length; i++) if (text.charCodeAt(i) === 10) line += 1;
  return line;
}

const SPECIFIER_PATTERNS: readonly RegExp[] = [
  /\b(?:import|export)\s+(?:type\s+)?[^'"`;]*?\bfrom\s*(['"`])([^'"`\n]+)\1/g,
  /\bimport\s*(['"`])([^'"`\n]+)\1/g,
  /\bimport\s*\(\s*(['"`])([^'"`\n]+)\1/g,
  /\brequire(?:\.resolve)?\s*\(\s*(['"`])([^'"`\n]+)\1/g,
];

/** Every module specifier the text imports, re-exports or requires, with where it is. */
export function moduleSpecifiers(text: string): Array<{ specifier: string; index: number }> {
  const found = new Map<number, string>();
  for (const pattern of SPECIFIER_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const specifier = match[2];
      if (specifier !== undefined) found.set((match.index ?? 0) + match[0].lastIndexOf(specifier), specifier);
    }
  }
  return [...found].sort((a, b) => a[0] - b[0]).map(([index, specifier]) => ({ specifier, index }));
}

/** Every single-, double- or back-quoted string in the text (line comments skipped). */
export function stringLiterals(text: string): Array<{ value: string; index: number }> {
  const out: Array<{ value: string; index: number }> = [];
  const pattern = /\/\/[^\n]*|\/\*[\s\S]*?\*\/|'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g;
  for (const match of text.matchAll(pattern)) {
    const value = match[1] ?? match[2] ?? match[3];
    if (value !== undefined) out.push({ value, index: (match.index ?? 0) + 1 });
  }
  return out;
}

/**
 * Framework dependencies of one source file. `withStrings: false` is for the guard's own files,
 * which name every framework in their deny-lists and fixtures: their imports are still checked.
 */
export function scanSource(
  file: TextFile,
  options: { withStrings: boolean } = { withStrings: true },
): IndependenceFinding[] {
  const findings: IndependenceFinding[] = [];
  const reported = new Set<number>();
  for (const { specifier, index } of moduleSpecifiers(file.text)) {
    const framework = frameworkOfLocator(specifier);
    if (framework === undefined) continue;
    reported.add(index);
    findings.push({ file: file.path, line: lineOf(file.text, index), where: 'import', framework, evidence: specifier });
  }
  if (options.withStrings) {
    for (const { value, index } of stringLiterals(file.text)) {
      if (reported.has(index)) continue;
      const framework = frameworkOfLocator(value);
      if (framework !== undefined)
        findings.push({ file: file.path, line: lineOf(file.text, index), where: 'string', framework, evidence: value });
    }
  }
  return findings;
}

/** The relative module specifiers of a source file (`./x`, `../compiler/y`): its import-graph edges. */
export function relativeImports(text: string): string[] {
  return moduleSpecifiers(text)
    .map(({ specifier }) => specifier)
    .filter((specifier) => specifier.startsWith('./') || specifier.startsWith('../'));
}

function parseJson(file: TextFile): { ok: true; value: unknown } | { ok: false; finding: IndependenceFinding } {
  try {
    return { ok: true, value: JSON.parse(file.text) };
  } catch {
    // An unreadable manifest cannot be shown to be free of frameworks: fail closed.
    return {
      ok: false,
      finding: {
        file: file.path,
        where: 'unreadable JSON',
        framework: 'unknown',
        evidence: 'the file is not JSON, so it cannot be checked',
      },
    };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function keyLine(text: string, key: string): number | undefined {
  const index = text.indexOf(JSON.stringify(key));
  return index < 0 ? undefined : lineOf(text, index);
}

/** Names and locators of a dependency map (nested maps, as `overrides` has, included). */
function scanDependencyMap(file: TextFile, where: string, map: unknown, findings: IndependenceFinding[]): void {
  if (Array.isArray(map)) {
    for (const name of map) if (typeof name === 'string') report(file, where, frameworkOfPackage(name), name, findings);
    return;
  }
  if (!isRecord(map)) return;
  for (const [name, value] of Object.entries(map)) {
    // `parent>child` (pnpm) and `name@range` (overrides) keys name each package they touch.
    const named = name
      .split('>')
      .map((part) => frameworkOfPackage(part.replace(/(.)@[^/@]*$/, '$1')))
      .find((framework) => framework !== undefined);
    report(file, where, named, name, findings);
    if (typeof value === 'string') report(file, `${where} locator`, frameworkOfLocator(value), value, findings);
    else scanDependencyMap(file, where, value, findings);
  }
}

function report(
  file: TextFile,
  where: string,
  framework: string | undefined,
  evidence: string,
  findings: IndependenceFinding[],
): void {
  if (framework === undefined) return;
  const line = keyLine(file.text, evidence);
  findings.push({ file: file.path, ...(line === undefined ? {} : { line }), where, framework, evidence });
}

const DEPENDENCY_SECTIONS = [
  'dependencies',
  'devDependencies',
  'peerDependencies',
  'optionalDependencies',
  'bundleDependencies',
  'bundledDependencies',
  'overrides',
  'resolutions',
] as const;

/** Framework dependencies declared by a `package.json`. */
export function scanPackageManifest(file: TextFile): IndependenceFinding[] {
  const parsed = parseJson(file);
  if (!parsed.ok) return [parsed.finding];
  const findings: IndependenceFinding[] = [];
  if (!isRecord(parsed.value)) return findings;
  const manifest = parsed.value;
  for (const section of DEPENDENCY_SECTIONS) scanDependencyMap(file, section, manifest[section], findings);
  if (isRecord(manifest.pnpm)) scanDependencyMap(file, 'pnpm.overrides', manifest.pnpm.overrides, findings);
  return findings;
}

/** The package a lock-file key installs: `node_modules/a/node_modules/@s/b` → `@s/b`. */
export function packageOfLockKey(key: string): string | undefined {
  const at = key.lastIndexOf('node_modules/');
  return at < 0 ? undefined : key.slice(at + 'node_modules/'.length);
}

/** Framework packages a `package-lock.json` (versions 1 to 3) installs or points at. */
export function scanLockFile(file: TextFile): IndependenceFinding[] {
  const parsed = parseJson(file);
  if (!parsed.ok) return [parsed.finding];
  const findings: IndependenceFinding[] = [];
  if (!isRecord(parsed.value)) return findings;
  const lock = parsed.value;
  if (isRecord(lock.packages)) {
    for (const [key, entry] of Object.entries(lock.packages)) {
      const name = packageOfLockKey(key);
      if (name !== undefined) report(file, 'lock package key', frameworkOfPackage(name), key, findings);
      if (!isRecord(entry)) continue;
      if (typeof entry.name === 'string')
        report(file, 'lock package name', frameworkOfPackage(entry.name), entry.name, findings);
      if (typeof entry.resolved === 'string')
        report(file, 'lock resolved locator', frameworkOfLocator(entry.resolved), entry.resolved, findings);
      if (typeof entry.version === 'string')
        report(file, 'lock version locator', frameworkOfLocator(entry.version), entry.version, findings);
      for (const section of DEPENDENCY_SECTIONS) scanDependencyMap(file, `lock ${section}`, entry[section], findings);
    }
  }
  const walkV1 = (tree: unknown, depth: number): void => {
    if (!isRecord(tree) || depth > 64) return;
    for (const [name, entry] of Object.entries(tree)) {
      report(file, 'lock dependency', frameworkOfPackage(name), name, findings);
      if (!isRecord(entry)) continue;
      if (typeof entry.version === 'string')
        report(file, 'lock version locator', frameworkOfLocator(entry.version), entry.version, findings);
      if (typeof entry.resolved === 'string')
        report(file, 'lock resolved locator', frameworkOfLocator(entry.resolved), entry.resolved, findings);
      if (isRecord(entry.requires)) scanDependencyMap(file, 'lock requires', entry.requires, findings);
      walkV1(entry.dependencies, depth + 1);
    }
  };
  walkV1(lock.dependencies, 0);
  return findings;
}

/** Framework packages among installed package names (`langchain`, `@langchain/core`). */
export function scanInstalledPackages(names: readonly string[], where = 'node_modules'): IndependenceFinding[] {
  return names.flatMap((name) => {
    const framework = frameworkOfPackage(name);
    return framework === undefined ? [] : [{ file: where, where: 'installed package', framework, evidence: name }];
  });
}

/** Framework requirements of a pip requirements or constraints file. */
export function scanRequirements(file: TextFile): IndependenceFinding[] {
  const findings: IndependenceFinding[] = [];
  file.text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.replace(/(^|\s)#(?!egg=).*$/, '').trim();
    if (line.length === 0) return;
    const locator = /(?:^|\s)(?:-e\s+|--editable\s+)?((?:git|hg|svn|bzr)\+\S+|https?:\/\/\S+|file:\S+)/.exec(line)?.[1];
    const egg = /#egg=([A-Za-z0-9._-]+)/.exec(line)?.[1];
    const name = line.startsWith('-') ? undefined : /^([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(line)?.[1];
    const direct = /^([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*@\s*(\S+)/.exec(line);
    const candidates: Array<[string, string | undefined]> = [
      ['requirement', name === undefined ? undefined : frameworkOfPackage(name)],
      ['requirement egg', egg === undefined ? undefined : frameworkOfPackage(egg)],
      ['requirement locator', locator === undefined ? undefined : frameworkOfLocator(locator)],
      ['requirement locator', direct?.[2] === undefined ? undefined : frameworkOfLocator(direct[2])],
    ];
    const hit = candidates.find(([, framework]) => framework !== undefined);
    if (hit?.[1] !== undefined)
      findings.push({ file: file.path, line: index + 1, where: hit[0], framework: hit[1], evidence: raw.trim() });
  });
  return findings;
}

export interface IndependenceInput {
  /** Composition code and what it imports; the guard's own files with `withStrings: false`. */
  sources?: ReadonlyArray<TextFile & { withStrings?: boolean }>;
  packageManifests?: readonly TextFile[];
  lockFiles?: readonly TextFile[];
  installedPackages?: readonly string[];
  requirements?: readonly TextFile[];
}

/** Every agent-framework dependency in the given evidence; empty means independent. */
export function scanIndependence(input: IndependenceInput): IndependenceFinding[] {
  return [
    ...(input.sources ?? []).flatMap((file) => scanSource(file, { withStrings: file.withStrings !== false })),
    ...(input.packageManifests ?? []).flatMap(scanPackageManifest),
    ...(input.lockFiles ?? []).flatMap(scanLockFile),
    ...scanInstalledPackages(input.installedPackages ?? []),
    ...(input.requirements ?? []).flatMap(scanRequirements),
  ];
}
