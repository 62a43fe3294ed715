/**
 * Where a few values start in a JSON text, without the position-keeping parser: graph inference
 * needs the line of each pin and where `identity.slug` and `identity.id` stand, and building the
 * parser's map of every pointer for that cost more than the rest of a summary (profiled: the
 * position parse was half of a cold `createNodes`). This scanner descends only into the members
 * on the way to a wanted path and skips every other value by its brackets and quotes.
 *
 * It reads texts the parser already accepted (valid JSON, the root an object) and gives the same
 * offsets as the parser's `valueAt`: the first character of the value, after whitespace. On any
 * text it cannot follow it returns `undefined` (the caller then asks the document itself); it
 * never throws.
 */
import { joinPointer } from '../definition/json-pointer';
import {
  SPACE,
  TAB,
  LF,
  CR,
  QUOTE,
  BACKSLASH,
  COMMA,
  COLON,
  OPEN_BRACE,
  CLOSE_BRACE,
  OPEN_BRACKET,
  CLOSE_BRACKET,
} from '../definition/json-char-codes';

/** A wanted path: property names, and `*` for every element of an array. */
export type ValuePath = readonly string[];

/** The paths below one value: whether the value itself is wanted, and by which member or element to go on. */
interface PathTree {
  wanted: boolean;
  members: Map<string, PathTree>;
  elements?: PathTree;
}

function pathTree(paths: readonly ValuePath[]): PathTree {
  const root: PathTree = { wanted: false, members: new Map() };
  for (const path of paths) {
    let node = root;
    for (const segment of path) {
      if (segment === '*') {
        node.elements ??= { wanted: false, members: new Map() };
        node = node.elements;
        continue;
      }
      let next = node.members.get(segment);
      if (next === undefined) {
        next = { wanted: false, members: new Map() };
        node.members.set(segment, next);
      }
      node = next;
    }
    node.wanted = true;
  }
  return root;
}

/** A run of characters that are no quote and no bracket (sticky: it matches at `lastIndex`, maybe nothing). */
const UNSTRUCTURED = /[^"[\]{}]*/y;

/** The text cannot be followed (it is not the JSON the parser accepted). */
class Unreadable {}

class Scanner {
  readonly offsets = new Map<string, number>();

  constructor(private readonly text: string) {}

  private code(at: number): number {
    if (at >= this.text.length) throw new Unreadable();
    return this.text.charCodeAt(at);
  }

  skipSpace(at: number): number {
    let pos = at;
    for (;;) {
      const c = this.text.charCodeAt(pos);
      if (c === SPACE || c === LF || c === CR || c === TAB) pos++;
      else return pos;
    }
  }

  /** The offset of the quote closing the string that opens at `at`. */
  private stringEnd(at: number): number {
    let from = at + 1;
    for (;;) {
      const quote = this.text.indexOf('"', from);
      if (quote < 0) throw new Unreadable();
      let backslashes = 0;
      while (this.text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
      if (backslashes % 2 === 0) return quote;
      from = quote + 1;
    }
  }

  /** Past the value starting at `at` (no whitespace before it). */
  private skipValue(at: number): number {
    const c = this.code(at);
    if (c === QUOTE) return this.stringEnd(at) + 1;
    if (c !== OPEN_BRACE && c !== OPEN_BRACKET) {
      let pos = at;
      for (;;) {
        const d = this.text.charCodeAt(pos);
        if (
          Number.isNaN(d) ||
          d === COMMA ||
          d === CLOSE_BRACE ||
          d === CLOSE_BRACKET ||
          d === SPACE ||
          d === LF ||
          d === CR ||
          d === TAB
        )
          break;
        pos++;
      }
      if (pos === at) throw new Unreadable();
      return pos;
    }
    let depth = 0;
    for (let pos = at; ; pos++) {
      // Everything up to the next quote or bracket in one native step (most of a value's text).
      UNSTRUCTURED.lastIndex = pos;
      UNSTRUCTURED.test(this.text);
      pos = UNSTRUCTURED.lastIndex;
      const d = this.code(pos);
      if (d === QUOTE) pos = this.stringEnd(pos);
      else if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
      else {
        depth--; // a closing bracket: nothing else stops the run
        if (depth === 0) return pos + 1;
      }
    }
  }

  /** Reads the value at `at` (after whitespace), recording the wanted offsets below it; returns the offset past it. */
  value(at: number, tree: PathTree, pointer: string): number {
    const start = this.skipSpace(at);
    if (tree.wanted) this.offsets.set(pointer, start);
    const c = this.code(start);
    if (c === OPEN_BRACE && tree.members.size > 0) return this.object(start, tree, pointer);
    if (c === OPEN_BRACKET && tree.elements !== undefined) return this.array(start, tree.elements, pointer);
    return this.skipValue(start);
  }

  private object(open: number, tree: PathTree, pointer: string): number {
    let pos = this.skipSpace(open + 1);
    if (this.code(pos) === CLOSE_BRACE) return pos + 1;
    for (;;) {
      if (this.code(pos) !== QUOTE) throw new Unreadable();
      const end = this.stringEnd(pos);
      const raw = this.text.slice(pos + 1, end);
      const name = raw.includes('\\') ? (JSON.parse(this.text.slice(pos, end + 1)) as string) : raw;
      pos = this.skipSpace(end + 1);
      if (this.code(pos) !== COLON) throw new Unreadable();
      const member = tree.members.get(name);
      pos =
        member === undefined
          ? this.skipValue(this.skipSpace(pos + 1))
          : this.value(pos + 1, member, joinPointer(pointer, name));
      pos = this.skipSpace(pos);
      const next = this.code(pos);
      if (next === CLOSE_BRACE) return pos + 1;
      if (next !== COMMA) throw new Unreadable();
      pos = this.skipSpace(pos + 1);
    }
  }

  private array(open: number, element: PathTree, pointer: string): number {
    let pos = this.skipSpace(open + 1);
    if (this.code(pos) === CLOSE_BRACKET) return pos + 1;
    for (let index = 0; ; index++) {
      pos = this.skipSpace(this.value(pos, element, joinPointer(pointer, index)));
      const next = this.code(pos);
      if (next === CLOSE_BRACKET) return pos + 1;
      if (next !== COMMA) throw new Unreadable();
      pos++;
    }
  }
}

/** The tree of each list of paths, built once (graph inference asks with one constant list per file). */
const trees = new WeakMap<readonly ValuePath[], PathTree>();

/**
 * The offset where each value on `paths` starts in `text`, by JSON Pointer (array elements by
 * index), as the position-keeping parser records them; paths the text does not hold are absent.
 * `undefined` when the text is not JSON this scanner can follow.
 */
export function jsonValueOffsets(text: string, paths: readonly ValuePath[]): Map<string, number> | undefined {
  const scanner = new Scanner(text);
  let tree = trees.get(paths);
  if (tree === undefined) {
    tree = pathTree(paths);
    trees.set(paths, tree);
  }
  try {
    const end = scanner.skipSpace(scanner.value(0, tree, ''));
    return end === text.length ? scanner.offsets : undefined;
  } catch {
    return undefined;
  }
}
