#!/usr/bin/env node
// A real stdio MCP server (official @modelcontextprotocol/sdk McpServer) for the `search` tool of
// examples/code-search/agent.json: ranked, deterministic search over the small code index in
// index.json. Every result carries a file path and a line range; results are ordered by score,
// highest first (ties by path, then line). Run: node examples/mcp/code-search/server.mjs
import { readFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const index = JSON.parse(readFileSync(new URL('./index.json', import.meta.url), 'utf8'));
const STOP_WORDS = new Set(['a', 'an', 'and', 'all', 'every', 'find', 'for', 'in', 'is', 'of', 'on', 'show', 'me', 'the', 'to', 'where', 'which', 'with', 'who', 'what', 'how', 'does', 'do']);

/** Query terms: words of two or more characters, lower-cased, stop words dropped, a plural "s" dropped ("callers" finds "caller"). */
function terms(query) {
  const words = query.toLowerCase().match(/[a-z0-9_$.]+/g) ?? [];
  return [...new Set(words.filter((w) => w.length >= 2 && !STOP_WORDS.has(w)).map((w) => (w.length > 3 && /[^s]s$/.test(w) ? w.slice(0, -1) : w)))];
}

function count(haystack, needle) {
  let n = 0;
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

function search(query, limit = 5) {
  const wanted = terms(query);
  const results = [];
  for (const chunk of index.chunks) {
    const text = `${chunk.path}\n${chunk.text}`.toLowerCase();
    let score = 0;
    for (const term of wanted) score += count(text, term);
    if (score > 0) results.push({ path: chunk.path, startLine: chunk.startLine, endLine: chunk.endLine, score, snippet: chunk.text.split('\n')[0] });
  }
  results.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || a.startLine - b.startLine);
  return { query, terms: wanted, results: results.slice(0, limit) };
}

const server = new McpServer({ name: 'code-search-index', version: '2.1.0' });
server.registerTool(
  'search',
  {
    description: 'Ranked search over the workspace code index. Every result has a file path and a line range.',
    inputSchema: { text: z.string().min(1).describe('What to look for, in words or identifiers.'), limit: z.number().int().min(1).max(20).optional().describe('Most results to return (default 5).') },
    outputSchema: {
      query: z.string(),
      terms: z.array(z.string()),
      results: z.array(z.object({ path: z.string(), startLine: z.number().int(), endLine: z.number().int(), score: z.number(), snippet: z.string() })),
    },
  },
  async ({ text, limit }) => {
    const found = search(text, limit ?? 5);
    const lines = found.results.map((r) => `${r.path}:${r.startLine}-${r.endLine} (score ${r.score}) ${r.snippet}`);
    return { content: [{ type: 'text', text: lines.length > 0 ? lines.join('\n') : 'no results' }], structuredContent: found };
  },
);

await server.connect(new StdioServerTransport());
// The host closes our stdin when it stops (or dies): stop with it.
process.stdin.on('end', () => process.exit(0));
