/**
 * `keyword-extract` (tool `extract_keywords` of the keyword-extract example): the most frequent
 * content words of an English text (lowercased, stop words and words under three letters
 * dropped), ties broken alphabetically, so the same text always gives the same list.
 */
import { stringArg, type ToolArgs } from './tool-context';

export interface Keywords {
  keywords: { word: string; count: number }[];
  words: number;
}

const STOP_WORDS = new Set(
  (
    'about above after again against all also and any are because been before being below between both but can could did does doing down during each few for from further had has have having her here hers herself him himself his how its itself just more most nor not now off once only other our ours ourselves out over own same she should some such than that the their theirs them themselves then there these they this those through too under until very was were what when where which while who whom why will with would you your yours yourself yourselves into onto upon via per may might must shall'
  ).split(' '),
);

export function keywordsOf(text: string, limit = 8): Keywords {
  const words = text.toLowerCase().match(/\p{L}[\p{L}'’-]*/gu) ?? [];
  const counts = new Map<string, number>();
  for (const raw of words) {
    const word = raw.replace(/['’-]+$/, '');
    if (word.length < 3 || STOP_WORDS.has(word)) continue;
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const keywords = [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, limit)
    .map(([word, count]) => ({ word, count }));
  return { keywords, words: words.length };
}

export function extractKeywords(args: ToolArgs): Keywords {
  const limit = typeof args['limit'] === 'number' && args['limit'] >= 1 ? Math.min(Math.floor(args['limit']), 50) : 8;
  return keywordsOf(stringArg(args, 'text', { maxLength: 1_000_000 }), limit);
}
