/**
 * The workspace index one plan needs, without parsing the whole workspace: it answers
 * {@link PinLookup} exactly as `indexWorkspace` would for the same files, but reads each
 * definition's bytes once (on the first question) and parses only the files that can matter to the
 * slug asked about. A pin still proves its definition unique: every file is read and searched.
 *
 * Why skipping the others is exact: a string equal to a slug (`[a-z0-9-]`, no space, no quote)
 * appears in the UTF-8 bytes of a JSON or YAML text either literally, or through an escape, which
 * needs a backslash (JSON and YAML double-quoted escapes; YAML line folding only ever yields spaces
 * and line breaks, single quotes only `'`). So a file whose bytes hold neither the slug nor a
 * backslash cannot state it as `identity.slug`; and whether its identity is unreadable matters to
 * `slug` only when its path has a folder named `slug` (`unreadableNamed`), which is checked by name.
 * Any slug outside the schema's pattern takes the full read. The bytes of every file are searched
 * as one buffer, one native search per slug; that buffer holds at most {@link CORPUS_LIMIT_BYTES}
 * (a workspace of many large definitions would otherwise hold them all in memory, past what one
 * buffer can be): each file past it is parsed for its identity when read, its bytes dropped, and
 * is a candidate for every slug. Never throws.
 */
import { findDefinitionFiles, isSlug } from '../definition/workspace-definitions';
import { lastAtOrBefore } from '../definition/last-at-or-before';
import type { SourceBytes } from '../definition/read-source';
import {
  byVersionThenFile,
  definitionReader,
  identityOfFile,
  isNamedFor,
  type IndexOptions,
  type PinLookup,
  type UnreadableDefinition,
  type WorkspaceEntry,
} from './workspace-index';

interface ReadFile {
  file: string;
  read: SourceBytes;
  identity?: WorkspaceEntry | UnreadableDefinition;
}

/** Every file read, and what finds the ones that may concern a slug. */
interface ReadWorkspace {
  files: ReadFile[];
  /** The bytes of every file that could be read, one after the other. */
  corpus: Buffer;
  /** For each file in `corpus`, its offset there and its position in `files` (ascending). */
  starts: number[];
  owners: number[];
  /** Positions of the files whose bytes hold a backslash. */
  escaped: number[];
  /** Path segment → positions of the files with a folder (or a name) so called. */
  named: Map<string, number[]>;
  /** Positions of the files past the corpus limit: identified when read, asked about for every slug. */
  identified: number[];
}

/** The most definition bytes kept for searching (64 MiB: 16 definitions at the 4 MiB size limit). */
export const CORPUS_LIMIT_BYTES = 64 * 1024 * 1024;

const BACKSLASH = 0x5c;

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function readWorkspace(workspaceRoot: string, options: IndexOptions, corpusLimit: number): ReadWorkspace {
  const read = definitionReader(workspaceRoot);
  const chunks: Buffer[] = [];
  const starts: number[] = [];
  const owners: number[] = [];
  const named = new Map<string, number[]>();
  const identified: number[] = [];
  let offset = 0;
  const files = findDefinitionFiles(workspaceRoot, options).map((file, position): ReadFile => {
    for (const segment of new Set(file.split('/'))) {
      const list = named.get(segment);
      if (list) list.push(position);
      else named.set(segment, [position]);
    }
    const entry: ReadFile = { file, read: read(file) };
    if (entry.read.bytes === undefined) return entry;
    if (offset + entry.read.bytes.length > corpusLimit) {
      entry.identity = identityOfFile(file, entry.read);
      entry.read = { diagnostics: entry.read.diagnostics };
      identified.push(position);
      return entry;
    }
    const bytes = asBuffer(entry.read.bytes);
    chunks.push(bytes);
    starts.push(offset);
    owners.push(position);
    offset += bytes.length;
    return entry;
  });
  const corpus = Buffer.concat(chunks, offset);
  // One copy of the bytes is kept: each file's become a view of the corpus.
  owners.forEach((position, chunk) => {
    const entry = files[position];
    const start = starts[chunk] ?? 0;
    if (entry) entry.read = { ...entry.read, bytes: corpus.subarray(start, start + (chunks[chunk]?.length ?? 0)) };
  });
  return { files, corpus, starts, owners, escaped: ownersOf(corpus, BACKSLASH, starts, owners), named, identified };
}

/** The file (its position in `starts`) holding the corpus byte at `at`. */
const chunkAt = lastAtOrBefore;

/** Positions (in `files`) of the files whose bytes hold `needle`, each once, ascending. A match across two files only adds a file. */
function ownersOf(
  corpus: Buffer,
  needle: Buffer | number,
  starts: readonly number[],
  owners: readonly number[],
): number[] {
  const found: number[] = [];
  for (let at = corpus.indexOf(needle); at >= 0; ) {
    const chunk = chunkAt(starts, at);
    found.push(owners[chunk] ?? 0);
    const next = starts[chunk + 1];
    if (next === undefined) break;
    at = corpus.indexOf(needle, next);
  }
  return found;
}

export function lazyWorkspaceIndex(
  workspaceRoot: string,
  options: IndexOptions = {},
  corpusLimit = CORPUS_LIMIT_BYTES,
): PinLookup {
  let workspace: ReadWorkspace | undefined;
  const answers = new Map<string, { definitions: WorkspaceEntry[]; unreadable: UnreadableDefinition[] }>();

  /** Positions of the files that may state `slug` or be unreadable ones named for it, in walk order. */
  const candidates = (ws: ReadWorkspace, slug: string): Iterable<number> => {
    if (!isSlug(slug)) return ws.files.keys();
    const literal = ownersOf(ws.corpus, Buffer.from(slug, 'utf8'), ws.starts, ws.owners);
    return [...new Set([...(ws.named.get(slug) ?? []), ...ws.escaped, ...literal, ...ws.identified])].sort(
      (a, b) => a - b,
    );
  };

  const answer = (slug: string) => {
    const known = answers.get(slug);
    if (known) return known;
    workspace ??= readWorkspace(workspaceRoot, options, corpusLimit);
    const definitions: WorkspaceEntry[] = [];
    const unreadable: UnreadableDefinition[] = [];
    for (const position of candidates(workspace, slug)) {
      const entry = workspace.files[position];
      if (entry === undefined) continue;
      entry.identity ??= identityOfFile(entry.file, entry.read);
      const found = entry.identity;
      if ('reason' in found) {
        if (isNamedFor(found.file, slug)) unreadable.push(found);
      } else if (found.slug === slug) definitions.push(found);
    }
    definitions.sort(byVersionThenFile);
    const result = { definitions, unreadable };
    answers.set(slug, result);
    return result;
  };

  return {
    definitionsOf: (slug) => answer(slug).definitions,
    unreadableNamed: (slug) => answer(slug).unreadable,
  };
}
