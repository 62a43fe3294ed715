/**
 * The import graph of a source tree, for the architecture test: lists the production TypeScript
 * files under some top folders, extracts every import with its line (import and export-from
 * declarations, `import x = require()`, `import()` and `require()` calls, `import('x').T` in types),
 * resolves relative specifiers to files, puts every file in a layer by path, and checks the imports
 * against an architecture given as data (see layers.ts).
 * Reads files and nothing more; all paths it returns are root-relative with `/` separators.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, posix } from 'node:path';
import ts from 'typescript';

/** `type-only` is erased at runtime; `dynamic` is an `import()` or `require()` call. */
export type ImportKind = 'static' | 'type-only' | 'dynamic';

export interface ImportEdge {
  /** The importing file. */
  file: string;
  /** 1-based. */
  line: number;
  specifier: string;
  kind: ImportKind;
  /** Relative specifiers: the file it resolves to, or the joined path when no file matches. */
  target?: string;
  /** Bare specifiers: the package name (`node:fs` and `fs` both give `node:fs`). */
  package?: string;
}

/** Folders skipped everywhere, and file names that are not production code. */
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '__test-support__', '__fixtures__', '__golden__']);
const SOURCE = /\.(ts|mts|cts)$/;
const NOT_PRODUCTION = /(\.test\.ts|\.spec\.ts|(^|\/)test-support\.ts)$/;

/** Every production TypeScript file under `topFolders` of `root`, sorted. Missing folders give nothing. */
export function listSources(root: string, topFolders: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    let names: string[];
    try {
      names = readdirSync(join(root, rel));
    } catch {
      return; // gone (files are being moved) or not a folder
    }
    for (const name of names) {
      const child = rel === '' ? name : `${rel}/${name}`;
      let isDir: boolean;
      try {
        isDir = statSync(join(root, child)).isDirectory();
      } catch {
        continue;
      }
      if (isDir) {
        if (!SKIPPED_FOLDERS.has(name)) walk(child);
      } else if (SOURCE.test(name) && !NOT_PRODUCTION.test(child)) out.push(child);
    }
  };
  for (const top of topFolders) {
    const full = join(root, top);
    let stat;
    try {
      stat = statSync(full);
    } catch {
      continue;
    }
    if (stat.isDirectory()) walk(top);
    else if (SOURCE.test(top) && !NOT_PRODUCTION.test(top)) out.push(top);
  }
  return out.sort();
}

function isTypeOnlyNamed(elements: ts.NodeArray<ts.ImportSpecifier | ts.ExportSpecifier>): boolean {
  return elements.length > 0 && elements.every((element) => element.isTypeOnly);
}

function literalText(node: ts.Node | undefined): string | undefined {
  return node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined;
}

/** The module specifiers of one file's text, with kind and 1-based line, in source order. */
export function extractImports(
  fileName: string,
  text: string,
): Array<{ specifier: string; line: number; kind: ImportKind }> {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: Array<{ specifier: string; line: number; kind: ImportKind }> = [];
  const add = (literal: ts.Node, specifier: string, kind: ImportKind): void => {
    found.push({ specifier, kind, line: source.getLineAndCharacterOfPosition(literal.getStart(source)).line + 1 });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const specifier = literalText(node.moduleSpecifier);
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (!clause.name &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            isTypeOnlyNamed(clause.namedBindings.elements)));
      if (specifier !== undefined) add(node.moduleSpecifier, specifier, typeOnly ? 'type-only' : 'static');
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      const specifier = literalText(node.moduleSpecifier);
      const typeOnly =
        node.isTypeOnly ||
        (node.exportClause !== undefined &&
          ts.isNamedExports(node.exportClause) &&
          isTypeOnlyNamed(node.exportClause.elements));
      if (specifier !== undefined) add(node.moduleSpecifier, specifier, typeOnly ? 'type-only' : 'static');
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const specifier = literalText(node.moduleReference.expression);
      if (specifier !== undefined)
        add(node.moduleReference.expression, specifier, node.isTypeOnly ? 'type-only' : 'static');
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const isImport = callee.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(callee) && callee.text === 'require';
      const specifier = literalText(node.arguments[0]);
      if ((isImport || isRequire) && specifier !== undefined) add(node.arguments[0]!, specifier, 'dynamic');
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const specifier = literalText(node.argument.literal);
      if (specifier !== undefined) add(node.argument.literal, specifier, 'type-only');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const BUILTINS = new Set(builtinModules.map((name) => name.replace(/^node:/, '')));

/** `@scope/name/x` → `@scope/name`, `name/x` → `name`, `fs/promises` and `node:fs` → `node:fs`. */
export function packageName(specifier: string): string {
  const parts = specifier.replace(/^node:/, '').split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  return specifier.startsWith('node:') || BUILTINS.has(name) ? `node:${name}` : name;
}

/** The file a relative specifier names: itself, `.js` → `.ts`, then `.ts`, `.d.ts`, `/index.ts`. */
export function resolveRelative(root: string, from: string, specifier: string): string {
  const base = posix.normalize(posix.join(posix.dirname(from), specifier)).replace(/\/$/, '');
  const candidates = [
    base,
    base
      .replace(/\.js$/, '.ts')
      .replace(/\.mjs$/, '.mts')
      .replace(/\.cjs$/, '.cts'),
    `${base}.ts`,
    `${base}.d.ts`,
    `${base}/index.ts`,
  ];
  for (const candidate of candidates) {
    try {
      if (statSync(join(root, candidate)).isFile()) return candidate;
    } catch {
      // try the next one
    }
  }
  return base;
}

/** The import edges of every listed file. Relative specifiers get `target`, bare ones `package`. */
export function importGraph(root: string, topFolders: readonly string[]): { files: string[]; edges: ImportEdge[] } {
  const files = listSources(root, topFolders);
  const edges: ImportEdge[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(join(root, file), 'utf8');
    } catch {
      continue; // moved away since it was listed
    }
    for (const { specifier, line, kind } of extractImports(file, text)) {
      const edge: ImportEdge = { file, line, specifier, kind };
      if (specifier.startsWith('.')) edge.target = resolveRelative(root, file, specifier);
      else if (!specifier.startsWith('/')) edge.package = packageName(specifier);
      edges.push(edge);
    }
  }
  return { files, edges };
}

// ---- the rule table's shape, and the check ----

/** How a layer may reach another: at all, only through erased types, or only through `import()`. */
export type Access = 'yes' | 'type-only' | 'lazy';

export interface Architecture<L extends string> {
  /** First match wins. A path ending in `/**` matches that folder and everything under it; a `*` segment elsewhere matches one name. */
  layers: ReadonlyArray<{ layer: L; paths: readonly string[] }>;
  /** The layers each layer may import (itself included only when listed); anything absent is refused. */
  imports: Readonly<Record<L, Partial<Record<L, Access>>>>;
  /**
   * Packages a layer must not load. Keys: a package name, `@scope/*`, `node:*` (any Node built-in)
   * or `*` (any package); values: `no`, or the one way it may still be imported.
   */
  packages: Partial<Record<L, Readonly<Record<string, 'no' | Access>>>>;
  /** Folders whose subfolders must not import one another (files directly in the folder may). */
  siblings: ReadonlyArray<{ rule: string; folder: string }>;
}

export interface Violation {
  file: string;
  line: number;
  rule: string;
  /** The importing file's layer. */
  from: string;
  /** The imported layer or package. */
  to: string;
  specifier: string;
  why: string;
}

export function layerOf<L extends string>(path: string, architecture: Architecture<L>): L | undefined {
  for (const { layer, paths } of architecture.layers) {
    for (const pattern of paths) {
      if (pattern.endsWith('/**')) {
        const folder = pattern.slice(0, -3);
        if (path === folder || path.startsWith(`${folder}/`)) return layer;
      } else if (matchesSegments(path, pattern)) return layer;
    }
  }
  return undefined;
}

/** `pattern` names one file; a `*` segment stands for any one folder or file name. */
function matchesSegments(path: string, pattern: string): boolean {
  const parts = path.split('/');
  const wanted = pattern.split('/');
  return parts.length === wanted.length && wanted.every((segment, i) => segment === '*' || segment === parts[i]);
}

function permits(access: Access | 'no' | undefined, kind: ImportKind): boolean {
  if (access === 'yes') return true;
  if (access === 'type-only') return kind === 'type-only';
  if (access === 'lazy') return kind !== 'static';
  return false;
}

function refusal(access: Access | 'no' | undefined): string {
  if (access === 'type-only') return 'only `import type` is allowed';
  if (access === 'lazy') return 'only a lazy import() is allowed';
  return 'not allowed';
}

function packageRule(pkg: string, rules: Readonly<Record<string, 'no' | Access>>): 'no' | Access | undefined {
  if (rules[pkg] !== undefined) return rules[pkg];
  const scope = pkg.startsWith('@') ? `${pkg.split('/')[0]}/*` : undefined;
  if (scope !== undefined && rules[scope] !== undefined) return rules[scope];
  if (pkg.startsWith('node:') && rules['node:*'] !== undefined) return rules['node:*'];
  return rules['*'];
}

/** Every import that breaks the architecture, and every file no layer claims; sorted by file and line. */
export function checkImports<L extends string>(
  graph: { files: readonly string[]; edges: readonly ImportEdge[] },
  architecture: Architecture<L>,
): Violation[] {
  const out: Violation[] = [];
  for (const file of graph.files) {
    if (layerOf(file, architecture) === undefined)
      out.push({
        file,
        line: 1,
        rule: 'unclassified',
        from: '?',
        to: '?',
        specifier: '',
        why: 'no layer claims this file',
      });
  }
  for (const edge of graph.edges) {
    const from = layerOf(edge.file, architecture);
    if (from === undefined) continue;
    const at = { file: edge.file, line: edge.line, specifier: edge.specifier, from };
    if (edge.package !== undefined) {
      const access = packageRule(edge.package, architecture.packages[from] ?? {});
      if (access !== undefined && !permits(access, edge.kind))
        out.push({ ...at, rule: `${from}-packages`, to: edge.package, why: `${edge.kind} import; ${refusal(access)}` });
      continue;
    }
    if (edge.target === undefined) continue;
    const to = layerOf(edge.target, architecture);
    if (to === undefined) {
      out.push({ ...at, rule: 'unclassified', to: '?', why: `${edge.target} is in no layer` });
      continue;
    }
    const access = architecture.imports[from][to];
    if (!permits(access, edge.kind))
      out.push({ ...at, rule: `${from}-imports`, to, why: `${edge.kind} import; ${refusal(access)}` });
    for (const { rule, folder } of architecture.siblings) {
      const own = subfolder(edge.file, folder);
      const other = subfolder(edge.target, folder);
      if (own !== undefined && other !== undefined && own !== other)
        out.push({
          ...at,
          rule,
          from: `${folder}/${own}`,
          to: `${folder}/${other}`,
          why: 'sibling folders stay apart',
        });
    }
  }
  return out.sort((a, b) =>
    a.file === b.file ? a.line - b.line || a.rule.localeCompare(b.rule) : a.file < b.file ? -1 : 1,
  );
}

/** The first folder below `folder` that `path` is in, if any (`undefined` for files directly in it). */
function subfolder(path: string, folder: string): string | undefined {
  if (!path.startsWith(`${folder}/`)) return undefined;
  const rest = path.slice(folder.length + 1).split('/');
  return rest.length > 1 ? rest[0] : undefined;
}

/** `file:line: rule: from → to (specifier; why)`. */
export function formatViolation(v: Violation): string {
  const what = v.specifier === '' ? v.why : `${v.specifier}; ${v.why}`;
  return `${v.file}:${v.line}: ${v.rule}: ${v.from} → ${v.to} (${what})`;
}

// ---- value import cycles ----

/**
 * The cycles of value imports (static, not type-only; `import()` is lazy and breaks a cycle's
 * load order) among the graph's own files: each strongly connected component of more than one
 * file, or a file importing itself, as its files sorted; the cycles sorted by their first file.
 * Type-only imports are erased, so a cycle through one of them costs nothing at run time.
 */
export function valueImportCycles(graph: { files: readonly string[]; edges: readonly ImportEdge[] }): string[][] {
  const known = new Set(graph.files);
  const next = new Map<string, string[]>();
  for (const edge of graph.edges) {
    if (edge.kind !== 'static' || edge.target === undefined || !known.has(edge.target)) continue;
    next.set(edge.file, [...(next.get(edge.file) ?? []), edge.target]);
  }
  // Tarjan's strongly connected components, iteratively (the tree is deep enough to matter).
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let counter = 0;
  for (const root of graph.files) {
    if (index.has(root)) continue;
    const work: Array<{ file: string; at: number }> = [{ file: root, at: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = next.get(frame.file) ?? [];
      if (frame.at < targets.length) {
        const target = targets[frame.at++]!;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ file: target, at: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.file, Math.min(low.get(frame.file)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.file, Math.min(low.get(parent.file)!, low.get(frame.file)!));
      if (low.get(frame.file) !== index.get(frame.file)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.file);
      if (component.length > 1 || targets.includes(frame.file)) cycles.push(component.sort());
    }
  }
  return cycles.sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}
