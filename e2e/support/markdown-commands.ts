/**
 * The steps a reader of a markdown page carries out, in page order, for tests that follow a page
 * the way a newcomer does (the tutorial, the README walk-through). Two kinds of fenced block count:
 *
 * - a `sh` (or `bash`, `shell`) block: each line is one command (a line ending in `\` continues
 *   on the next; blank lines and whole-line `#` comments are skipped). A command whose trailing
 *   comment starts `# serves until Ctrl-C` is long-running: the reader leaves it running (in a
 *   second terminal) while they carry out the rest of the same block, then stops it with Ctrl-C.
 *   Marked `# serves until Ctrl-C: keep it running …`, it serves on through the blocks that follow,
 *   until a later command serves on its port or the page (the sections followed) ends. A command
 *   whose trailing comment says `exits N` is expected to end with status N (a check that reports a
 *   problem, say); every other command with 0.
 * - a block whose info string has `title="<path>"` (any language): a file the reader writes at
 *   that workspace-relative path. With `pointer="<JSON Pointer>"` too, the block is a JSON value
 *   the reader puts at that pointer of the (JSON) file instead of replacing the whole file.
 *
 * Every other block (`text` output, `json` without a title, …) is illustration and is ignored.
 * `section` limits the steps to one heading's section (up to the next heading of the same or a
 * higher level), `sections` to several (in page order).
 */

export interface CommandStep {
  kind: 'command';
  command: string;
  /** 1-based line of the command in the page. */
  line: number;
  /** Which fenced block (0-based, counting every block of the page) the command is in. */
  block: number;
  /** Marked `# serves until Ctrl-C`: runs until the end of its block. */
  longRunning: boolean;
  /** Marked `# serves until Ctrl-C: keep it running …`: runs on past its block (see above). */
  keepServing: boolean;
  /** The exit status the page says the command ends with (its trailing comment says `exits N`); 0 otherwise. */
  exits: number;
}

export interface FileStep {
  kind: 'file';
  path: string;
  /** Set: `content` is JSON to put at this pointer of the file; unset: the whole file. */
  pointer?: string;
  content: string;
  line: number;
}

export type DocStep = CommandStep | FileStep;

export const LONG_RUNNING_MARK = /#\s*serves until Ctrl-C\b.*$/;
export const KEEP_SERVING_MARK = /#\s*serves until Ctrl-C: keep it running\b.*$/;
const EXITS_MARK = /#.*\bexits (\d+)\b/;
const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell']);
const FENCE = /^(\s*)(`{3,}|~{3,})(.*)$/;

/** The value of `name="…"` in a fence's info string. */
function attribute(info: string, name: string): string | undefined {
  return new RegExp(`(?:^|\\s)${name}="([^"]*)"`).exec(info)?.[1];
}

/** The 0-based line range [from, to) of the heading's section (or the whole page). */
function sectionRange(lines: readonly { text: string }[], section: string | undefined): [number, number] {
  if (section === undefined) return [0, lines.length];
  let inFence = false;
  let start = -1;
  let level = 0;
  for (const [i, { text }] of lines.entries()) {
    if (FENCE.test(text)) inFence = !inFence;
    const heading = inFence ? null : /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(text);
    if (!heading) continue;
    if (start >= 0 && heading[1]!.length <= level) return [start, i];
    if (start < 0 && heading[2] === section) {
      start = i + 1;
      level = heading[1]!.length;
    }
  }
  if (start < 0) throw new Error(`no heading "${section}" in the page`);
  return [start, lines.length];
}

/** The commands of one shell block's body. */
function commandsOf(body: { text: string; line: number }[], block: number): CommandStep[] {
  const steps: CommandStep[] = [];
  let pending: { parts: string[]; line: number } | undefined;
  for (const { text, line } of body) {
    const trimmed = text.trim();
    if (pending === undefined && (trimmed === '' || trimmed.startsWith('#'))) continue;
    const continued = trimmed.endsWith('\\');
    const part = continued ? trimmed.slice(0, -1).trimEnd() : trimmed;
    pending = pending ? { ...pending, parts: [...pending.parts, part] } : { parts: [part], line };
    if (continued) continue;
    const command = pending.parts.join(' ');
    steps.push({
      kind: 'command',
      command,
      line: pending.line,
      block,
      longRunning: LONG_RUNNING_MARK.test(command),
      keepServing: KEEP_SERVING_MARK.test(command),
      exits: Number(EXITS_MARK.exec(command)?.[1] ?? 0),
    });
    pending = undefined;
  }
  return steps;
}

/** Every fenced block of the page, in order: its opening line (1-based), language, info string and body lines. */
export function fencedBlocks(markdown: string): { line: number; language: string; info: string; body: string[] }[] {
  const lines = markdown.split(/\r?\n/);
  const blocks: { line: number; language: string; info: string; body: string[] }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, rawInfo] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = FENCE.exec(lines[j]!);
      if (close && close[2]!.startsWith(fence!) && close[3]!.trim() === '') break;
      body.push(lines[j]!.startsWith(indent!) ? lines[j]!.slice(indent!.length) : lines[j]!);
    }
    const info = rawInfo!.trim();
    blocks.push({ line: i + 1, language: info.split(/\s+/)[0] ?? '', info, body });
    i = j;
  }
  return blocks;
}

/** Every step of the page (or of its section `options.section`, or sections `options.sections`), in order. */
export function extractSteps(
  markdown: string,
  options: { section?: string; sections?: readonly string[] } = {},
): DocStep[] {
  const lines = markdown.split(/\r?\n/).map((text, i) => ({ text, line: i + 1 }));
  const names = options.sections ?? (options.section !== undefined ? [options.section] : undefined);
  const ranges =
    names === undefined ? [sectionRange(lines, undefined)] : names.map((name) => sectionRange(lines, name));
  const inRange = (i: number) => ranges.some(([from, to]) => i >= from && i < to);
  const steps: DocStep[] = [];
  let block = -1;
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!.text);
    if (!open) continue;
    block++;
    const [, indent, fence, rawInfo] = open;
    const info = rawInfo!.trim();
    const body: { text: string; line: number }[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = FENCE.exec(lines[j]!.text);
      if (close && close[2]!.startsWith(fence!) && close[3]!.trim() === '') break;
      body.push({
        text: lines[j]!.text.startsWith(indent!) ? lines[j]!.text.slice(indent!.length) : lines[j]!.text,
        line: lines[j]!.line,
      });
    }
    const included = inRange(i);
    const fenceLine = lines[i]!.line;
    i = j;
    if (!included) continue;
    const language = info.split(/\s+/)[0] ?? '';
    const path = attribute(info, 'title');
    if (path !== undefined) {
      const pointer = attribute(info, 'pointer');
      const content = body.map((l) => l.text).join('\n') + '\n';
      steps.push({ kind: 'file', path, ...(pointer !== undefined ? { pointer } : {}), content, line: fenceLine });
    } else if (SHELL_LANGUAGES.has(language)) {
      steps.push(...commandsOf(body, block));
    }
  }
  return steps;
}
