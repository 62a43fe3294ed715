/**
 * YAML definitions: parsed by the `yaml` package, then converted by hand into the same plain,
 * null-prototype values and per-pointer offsets as JSON. Only what JSON can say is accepted: one
 * document, string keys, no duplicate keys, core-schema tags, finite numbers. Nesting is bounded
 * before the library composes the document (it recurses per level), and so is the number of
 * aliases: each expands to at least one value, so a file with more than `MAX_ALIAS_EXPANSION`
 * of them is refused at the first one past it from the lexer's tokens alone, before any document
 * is built (690,000 aliases in 4 MiB used to cost the library half a minute and a gigabyte before
 * the refusal). Alias expansion is then bounded while converting, both in values and in bytes (a
 * "billion laughs" file, or one large scalar aliased thousands of times, is refused at the alias,
 * not expanded).
 */
import type { Node, Scalar } from 'yaml';

/**
 * The `yaml` package loads on first use, so that Nx inference over JSON-only workspaces (it
 * shares this parser) never pays for it.
 */
let yamlModule: typeof import('yaml') | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const yaml = (): typeof import('yaml') => (yamlModule ??= require('yaml') as typeof import('yaml'));
import { ERROR_CODES, type Diagnostic } from './diagnostic';
import { joinPointer } from './json-pointer';
import { MAX_DEPTH, type ParsedText, type ParseOptions } from './parse-json';
import { lineIndex, type PositionAt } from './read-source';

/** At most this many values may be produced by expanding aliases. */
export const MAX_ALIAS_EXPANSION = 10_000;

/**
 * At most this many bytes (UTF-8 of the strings and property names) may be produced by expanding
 * aliases: as much again as a definition file may hold (read-source.ts's MAX_DEFINITION_BYTES).
 */
export const MAX_ALIAS_EXPANSION_BYTES = 4 * 1024 * 1024;

const CORE_TAGS: ReadonlySet<string> = new Set(
  ['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((t) => `tag:yaml.org,2002:${t}`),
);

export function parseYaml(text: string, file: string, options: ParseOptions = {}): ParsedText {
  const maxDepth = options.maxDepth ?? MAX_DEPTH;
  const positions = lineIndex(text);
  const at = (rule: string, offset: number, path: string, message: string): Diagnostic => {
    const { line, column } = positions(offset);
    return { code: ERROR_CODES.invalid, rule, severity: 'error', path, file, line, column, message };
  };
  const failed = (diagnostic: Diagnostic): ParsedText => ({
    value: undefined,
    valueAt: new Map(),
    keyAt: new Map(),
    diagnostics: [diagnostic],
  });

  const overLimit = tokenLimits(text, maxDepth, MAX_ALIAS_EXPANSION);
  if (overLimit?.limit === 'nesting')
    return failed(at('nesting-depth', overLimit.offset, '', `nesting deeper than ${maxDepth} levels`));
  if (overLimit?.limit === 'aliases')
    return failed(
      at(
        'yaml-alias',
        overLimit.offset,
        '',
        `more than ${MAX_ALIAS_EXPANSION.toLocaleString('en-US')} YAML aliases, and each expands to at least one value (at most ${MAX_ALIAS_EXPANSION.toLocaleString('en-US')} in all); write the values out or share less`,
      ),
    );

  const document = yaml().parseDocument(text, {
    version: '1.2',
    schema: 'core',
    uniqueKeys: false,
    prettyErrors: false,
    merge: false,
  });
  const converter = new Converter(text, maxDepth, positions, at);
  const value = converter.run(document.contents);

  const error = document.errors[0];
  if (error === undefined) {
    return { value, valueAt: converter.valueAt, keyAt: converter.keyAt, diagnostics: converter.diagnostics };
  }
  // One syntax error is enough; duplicate keys found before it are still worth reporting.
  const offset = error.pos[0];
  const syntax =
    error.code === 'MULTIPLE_DOCS'
      ? at(
          'multiple-documents',
          offset,
          '',
          'a definition file must hold a single YAML document; this starts a second one',
        )
      : error.code === 'RESOURCE_EXHAUSTION'
        ? at('nesting-depth', offset, '', `nesting deeper than ${maxDepth} levels`)
        : at('syntax', offset, '', error.message);
  const before = positions(offset);
  const duplicates = converter.diagnostics.filter(
    (d) => d.rule === 'duplicate-key' && (d.line < before.line || (d.line === before.line && d.column < before.column)),
  );
  return { value: undefined, valueAt: new Map(), keyAt: new Map(), diagnostics: [...duplicates, syntax] };
}

/** Thrown (and caught) when a limit is hit or an alias cannot be expanded. */
class Stop {}

type Report = (rule: string, offset: number, path: string, message: string) => Diagnostic;

class Converter {
  readonly valueAt = new Map<string, number>();
  readonly keyAt = new Map<string, number>();
  readonly diagnostics: Diagnostic[] = [];
  /** The latest node seen with each anchor, in document order. */
  private readonly anchors = new Map<string, unknown>();
  /** What each alias refers to, fixed where the alias appears in the text. */
  private readonly aliasTargets = new Map<unknown, unknown>();
  /** Collections being converted: an alias to one of them would be infinite. */
  private readonly open = new Set<unknown>();
  private expanded = 0;
  private expandedBytes = 0;

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
    private readonly positions: PositionAt,
    private readonly at: Report,
  ) {}

  run(root: unknown): unknown {
    try {
      return this.convert(root, '', 0, undefined);
    } catch (error) {
      if (error instanceof Stop) return undefined;
      throw error;
    }
  }

  /**
   * Converts `node`, found at `pointer` inside `depth` collections. `alias` is the offset of the
   * alias being expanded, if any: positions are recorded only for nodes the text holds at `pointer`.
   */
  private convert(node: unknown, pointer: string, depth: number, alias: number | undefined): unknown {
    if (node === null || node === undefined) return null; // e.g. `key:` with nothing after it
    const start = offsetOf(node);
    if (alias === undefined) this.valueAt.set(pointer, start);

    if (yaml().isAlias(node)) {
      const target = this.target(node, pointer);
      return this.convert(target, pointer, depth, alias ?? start);
    }
    if (alias !== undefined && ++this.expanded > MAX_ALIAS_EXPANSION) {
      this.fail(
        'yaml-alias',
        alias,
        pointer,
        `YAML aliases expand to more than ${MAX_ALIAS_EXPANSION.toLocaleString('en-US')} values (a "billion laughs" pattern); write the values out or share less`,
      );
    }
    const anchor = (node as { anchor?: unknown }).anchor;
    if (alias === undefined && typeof anchor === 'string') this.anchors.set(anchor, node);
    if (alias === undefined) this.checkTag(node, pointer);

    if (yaml().isScalar(node)) {
      const value = this.scalar(node, pointer, alias);
      if (alias !== undefined) this.countBytes(value, alias, pointer);
      return value;
    }
    if (!yaml().isMap(node) && !yaml().isSeq(node)) this.fail('syntax', start, pointer, 'unsupported YAML node');
    if (depth >= this.maxDepth)
      this.fail('nesting-depth', alias ?? start, pointer, `nesting deeper than ${this.maxDepth} levels`);

    this.open.add(node);
    let value: unknown;
    if (yaml().isSeq(node)) {
      const items: unknown[] = [];
      for (const item of node.items)
        items.push(this.convert(item, joinPointer(pointer, items.length), depth + 1, alias));
      value = items;
    } else {
      const object = Object.create(null) as Record<string, unknown>;
      const firstSeen = new Map<string, number>();
      for (const pair of node.items) {
        const key = this.key(pair.key, pointer, alias, start);
        if (key === undefined) continue;
        if (alias !== undefined) this.countBytes(key, alias, joinPointer(pointer, key));
        const keyStart = offsetOf(pair.key);
        const member = joinPointer(pointer, key);
        const first = firstSeen.get(key);
        if (first === undefined) firstSeen.set(key, keyStart);
        else if (alias === undefined) {
          this.report(
            'duplicate-key',
            keyStart,
            member,
            `duplicate key ${JSON.stringify(key)} (first defined on line ${this.positions(first).line})`,
          );
        }
        if (alias === undefined) {
          this.keyAt.set(member, keyStart);
          this.valueAt.set(member, keyStart); // replaced by the value's own offset when it has one
        }
        object[key] = this.convert(pair.value, member, depth + 1, alias);
      }
      value = object;
    }
    this.open.delete(node);
    return value;
  }

  /** Adds what an alias expanded to at `alias` to the byte budget; stops when it is spent. */
  private countBytes(value: unknown, alias: number, pointer: string): void {
    this.expandedBytes += typeof value === 'string' ? Buffer.byteLength(value, 'utf8') : 8;
    if (this.expandedBytes > MAX_ALIAS_EXPANSION_BYTES) {
      const limit = `${(MAX_ALIAS_EXPANSION_BYTES / (1024 * 1024)).toLocaleString('en-US')} MiB`;
      this.fail(
        'yaml-alias',
        alias,
        pointer,
        `YAML aliases expand to more than ${limit} of text (one large value aliased many times); write the values out or share less`,
      );
    }
  }

  private target(node: { source: string }, pointer: string): unknown {
    let target = this.aliasTargets.get(node);
    if (target === undefined) {
      target = this.anchors.get(node.source);
      if (target === undefined)
        this.fail(
          'yaml-alias',
          offsetOf(node),
          pointer,
          `unknown alias *${node.source}: no anchor &${node.source} comes before it`,
        );
      this.aliasTargets.set(node, target);
    }
    if (this.open.has(target))
      this.fail('yaml-alias', offsetOf(node), pointer, `alias *${node.source} refers to a collection that contains it`);
    return target;
  }

  /** A property name: a string scalar (or an alias to one). Reports and skips anything else. */
  private key(node: unknown, mapPointer: string, alias: number | undefined, mapStart: number): string | undefined {
    if (node === null || node === undefined) {
      if (alias === undefined) this.report('yaml-key', mapStart, mapPointer, 'a property name is missing');
      return undefined;
    }
    if (alias === undefined && !yaml().isAlias(node)) {
      const anchor = (node as { anchor?: unknown }).anchor;
      if (typeof anchor === 'string') this.anchors.set(anchor, node);
      this.checkTag(node, mapPointer);
    }
    const resolved = yaml().isAlias(node) ? this.target(node, mapPointer) : node;
    if (yaml().isScalar(resolved) && typeof resolved.value === 'string') {
      // An alias used as a key expands too (a key inside an expanded collection is counted by the caller).
      if (alias === undefined && yaml().isAlias(node)) this.countBytes(resolved.value, offsetOf(node), mapPointer);
      return resolved.value;
    }
    if (alias === undefined) {
      const found = yaml().isScalar(resolved) ? `${describe(resolved.value)} ${this.source(resolved)}` : 'a collection';
      this.report(
        'yaml-key',
        offsetOf(node),
        mapPointer,
        `property names must be strings, found ${found}; quote the key`,
      );
    }
    return undefined;
  }

  private scalar(node: Scalar, pointer: string, alias: number | undefined): unknown {
    const value = node.value;
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
    if (typeof value === 'number') {
      if (!Number.isFinite(value) && alias === undefined) {
        this.report(
          'yaml-value',
          offsetOf(node),
          pointer,
          `${this.source(node)} is not a finite number; JSON has no infinities or NaN`,
        );
      }
      return value;
    }
    // Only a tag outside the core schema (already reported) yields anything else, e.g. !!binary.
    if (alias === undefined && (node.tag === undefined || CORE_TAGS.has(node.tag))) {
      this.report('yaml-value', offsetOf(node), pointer, `${describe(value)} is not a JSON value`);
    }
    return null;
  }

  private checkTag(node: unknown, pointer: string): void {
    const tag = (node as { tag?: unknown } | null)?.tag;
    if (typeof tag !== 'string' || CORE_TAGS.has(tag)) return;
    const shown = tag.replace(/^tag:yaml\.org,2002:/, '!!');
    this.report(
      'yaml-tag',
      offsetOf(node),
      pointer,
      `the YAML tag ${shown} is not allowed; only the core schema's !!str, !!int, !!float, !!bool, !!null, !!map and !!seq are`,
    );
  }

  private source(node: Node): string {
    const [start, end] = node.range ?? [0, 0];
    const text = this.text.slice(start, Math.min(end, start + 40)).trim();
    return JSON.stringify(text);
  }

  private report(rule: string, offset: number, path: string, message: string): void {
    this.diagnostics.push(this.at(rule, offset, path, message));
  }

  private fail(rule: string, offset: number, path: string, message: string): never {
    this.report(rule, offset, path, message);
    throw new Stop();
  }
}

function offsetOf(node: unknown): number {
  return (node as { range?: readonly number[] | null } | null)?.range?.[0] ?? 0;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return 'the number';
  if (typeof value === 'boolean') return 'the boolean';
  if (value instanceof Date) return 'a timestamp';
  if (value instanceof Uint8Array) return 'binary data';
  return `a ${typeof value}`;
}

/**
 * The first limit the text passes, from the lexer's tokens alone (the lexer is iterative and
 * lazy: it stops there; composing a document is neither): where collections first nest deeper
 * than `maxDepth`, or the alias past the `maxAliases`th. Flow depth is counted exactly; block
 * depth with a stack of the columns where block collections start, as the parser does.
 */
function tokenLimits(
  text: string,
  maxDepth: number,
  maxAliases: number,
): { limit: 'nesting' | 'aliases'; offset: number } | undefined {
  let aliases = 0;
  const nesting = (offset: number) => ({ limit: 'nesting' as const, offset });
  const blocks: { column: number; kind: 'map' | 'seq' }[] = [];
  let flow = 0;
  let offset = 0;
  let lineStart = 0;
  /** Column of the first node on this line since the last block indicator: an implicit key. */
  let nodeColumn: number | undefined;
  let scalarNext = false;

  const enterBlock = (kind: 'map' | 'seq', column: number): boolean => {
    while ((blocks.at(-1)?.column ?? -1) > column) blocks.pop();
    const top = blocks.at(-1);
    if (top !== undefined && top.column === column) {
      if (top.kind === kind) return false;
      if (kind === 'map') {
        blocks.pop(); // a key at the column of a sequence that was a map value ends that sequence
        const outer = blocks.at(-1);
        if (outer !== undefined && outer.column === column && outer.kind === 'map') return false;
      }
    }
    blocks.push({ kind, column });
    return blocks.length + flow > maxDepth;
  };

  for (const token of new (yaml().Lexer)().lex(text)) {
    const start = offset;
    // The lexer's markers take no room in the text.
    if (!scalarNext) {
      if (token === yaml().CST.SCALAR) {
        scalarNext = true; // the next token is a scalar's source
        if (flow === 0) nodeColumn ??= start - lineStart;
        continue;
      }
      if (token === yaml().CST.DOCUMENT) continue;
      if (token === yaml().CST.FLOW_END) {
        flow = 0;
        continue;
      }
    }
    offset += token.length;
    const newline = token.lastIndexOf('\n');
    if (newline >= 0) {
      lineStart = start + newline + 1;
      nodeColumn = undefined;
    }
    if (scalarNext) {
      scalarNext = false; // a scalar's source is text, whatever it looks like
      continue;
    }
    const column = start - lineStart;
    switch (token) {
      case '---':
        blocks.length = 0;
        flow = 0;
        break;
      case '[':
      case '{':
        if (flow === 0) nodeColumn ??= column;
        flow++;
        if (blocks.length + flow > maxDepth) return nesting(start);
        break;
      case ']':
      case '}':
        flow = Math.max(0, flow - 1);
        break;
      case '-':
      case '?':
      case ':': {
        if (flow > 0) break;
        // A mapping starts at its first key; a sequence (or explicit key) at its indicator.
        const blockColumn = token === ':' ? (nodeColumn ?? column) : column;
        if (enterBlock(token === '-' ? 'seq' : 'map', blockColumn)) return nesting(lineStart + blockColumn);
        nodeColumn = undefined;
        break;
      }
      default: {
        const first = token[0];
        // An alias is its own token (`*name`); a scalar's text never reaches here.
        if (first === '*' && ++aliases > maxAliases) return { limit: 'aliases', offset: start };
        if (flow === 0 && (first === '"' || first === "'" || first === '&' || first === '!' || first === '*'))
          nodeColumn ??= column;
      }
    }
  }
  return undefined;
}
