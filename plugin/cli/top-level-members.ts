/**
 * The member names of a JSON text's top-level object, in order and with repeats, read from the text
 * itself (JSON.parse keeps only the last of two equal names). `text` must already be known to be
 * JSON (JSON.parse accepted it); anything but an object at the top gives an empty list. Values
 * are skipped without being built, so a long line costs one pass.
 */
export function topLevelMemberNames(text: string): string[] {
  const names: string[] = [];
  let i = 0;
  const skipSpace = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  /** The end (after its closing quote) of the string starting at `i`. */
  const stringEnd = (from: number): number => {
    let j = from + 1;
    while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
    return j + 1;
  };
  skipSpace();
  if (text[i] !== '{') return names;
  i++;
  for (;;) {
    skipSpace();
    if (text[i] !== '"') return names; // `}`: an empty object
    const end = stringEnd(i);
    names.push(JSON.parse(text.slice(i, end)) as string);
    i = end;
    skipSpace();
    i++; // the colon
    // Skip the value: strings whole, brackets counted, up to the comma or brace at this level.
    let depth = 0;
    for (; i < text.length; i++) {
      const c = text[i];
      if (c === '"') i = stringEnd(i) - 1;
      else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        if (depth === 0) return names;
        depth--;
      } else if (c === ',' && depth === 0) break;
    }
    i++; // the comma
  }
}
