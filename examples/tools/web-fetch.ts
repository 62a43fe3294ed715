/**
 * `web-fetch` (tool `fetch_page` of the web-summarizer example): fetches a page through the run's
 * egress-checked fetch, so only the origins the tool declares (the Acme fetch proxy and the Web
 * Archive) are reachable; anything else fails with `egress_blocked` before a byte leaves. HTML is
 * reduced to readable text (scripts, styles and tags dropped, entities decoded, whitespace
 * collapsed) and cut at `maxChars`.
 */
import { stringArg, type ToolArgs, type ToolContext } from './tool-context';

export interface FetchedPage {
  url: string;
  status: number;
  contentType: string;
  title?: string;
  text: string;
  truncated: boolean;
}

const MAX_BODY_BYTES = 2 * 1024 * 1024;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

export function readableText(html: string): { title?: string; text: string } {
  const titleMatch = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  const body = html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style|noscript|template|svg|head)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<\/?(p|div|br|li|h[1-6]|tr|section|article|header|footer|pre|blockquote)\b[^>]*>/gi, '\n')
    .replace(/<[^>]+>/g, ' ');
  const text = decodeEntities(body)
    .split('\n')
    .map((line) => line.replace(/[ \t\f\v\u00a0]+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
  const title = titleMatch ? decodeEntities(titleMatch[1]!).replace(/\s+/g, ' ').trim() : undefined;
  return title ? { title, text } : { text };
}

async function readCapped(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      break;
    }
    chunks.push(value);
  }
  const all = new Uint8Array(Math.min(size, MAX_BODY_BYTES));
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk.subarray(0, all.length - offset), offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(all);
}

export async function fetchPage(args: ToolArgs, context: ToolContext): Promise<FetchedPage> {
  const url = stringArg(args, 'url', { maxLength: 4096 });
  const maxChars = typeof args['maxChars'] === 'number' && args['maxChars'] > 0 ? Math.min(Math.floor(args['maxChars']), 100_000) : 20_000;
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new TypeError('only http(s) URLs can be fetched');
  const response = await context.fetch(parsed.toString(), { headers: { accept: 'text/html, text/plain;q=0.9, */*;q=0.1' }, signal: context.signal });
  const contentType = response.headers.get('content-type') ?? '';
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`the page answered HTTP ${response.status}`);
  }
  const raw = await readCapped(response);
  const page = /html/i.test(contentType) || /^\s*</.test(raw) ? readableText(raw) : { text: raw.trim() };
  const truncated = page.text.length > maxChars;
  return { url: response.url || parsed.toString(), status: response.status, contentType, ...(page.title ? { title: page.title } : {}), text: truncated ? page.text.slice(0, maxChars) : page.text, truncated };
}
