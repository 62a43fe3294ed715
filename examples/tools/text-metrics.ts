/**
 * `text-metrics` (tool `count_text` of the text-stats example): counts characters (grapheme
 * clusters), words, sentences, paragraphs and lines of a text and computes the Flesch reading-ease
 * score. Pure and deterministic: the same text always gives the same counts.
 */
import { stringArg, type ToolArgs } from './tool-context';

export interface TextMetrics {
  characters: number;
  words: number;
  sentences: number;
  paragraphs: number;
  lines: number;
  /** Present when the text has at least one word. */
  fleschReadingEase?: number;
}

const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

function graphemes(text: string): number {
  const Segmenter = (Intl as { Segmenter?: new (locale?: string, options?: { granularity: 'grapheme' }) => { segment(text: string): Iterable<unknown> } }).Segmenter;
  if (!Segmenter) return [...text].length;
  let count = 0;
  for (const _ of new Segmenter(undefined, { granularity: 'grapheme' }).segment(text)) count++;
  return count;
}

/** Vowel groups, minus a silent final "e": the usual English estimate, at least one per word. */
export function syllables(word: string): number {
  const w = word.toLowerCase().replace(/[^a-z]/g, '');
  if (w.length === 0) return 1;
  if (w.length <= 3) return 1;
  const trimmed = w.replace(/(?:[^laeiouy]es|ed|[^laeiouy]e)$/, '').replace(/^y/, '');
  const groups = trimmed.match(/[aeiouy]{1,2}/g);
  return Math.max(1, groups ? groups.length : 1);
}

export function measureText(text: string): TextMetrics {
  const words = text.match(WORD) ?? [];
  const sentences = text.split(/[.!?…]+(?=\s|$)|\n\s*\n/u).filter((s) => /[\p{L}\p{N}]/u.test(s)).length;
  const paragraphs = text.split(/\n\s*\n/).filter((p) => p.trim() !== '').length;
  const lines = text === '' ? 0 : text.replace(/(\r\n|\r|\n)$/, '').split(/\r\n|\r|\n/).length;
  const metrics: TextMetrics = { characters: graphemes(text), words: words.length, sentences, paragraphs, lines };
  if (words.length > 0) {
    const syllableCount = words.reduce((sum, w) => sum + syllables(w), 0);
    const score = 206.835 - 1.015 * (words.length / Math.max(1, sentences)) - 84.6 * (syllableCount / words.length);
    metrics.fleschReadingEase = Math.round(score * 10) / 10;
  }
  return metrics;
}

export function countText(args: ToolArgs): TextMetrics {
  return measureText(stringArg(args, 'text', { maxLength: 1_000_000 }));
}
