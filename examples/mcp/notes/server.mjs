#!/usr/bin/env node
// A real stdio MCP server (official @modelcontextprotocol/sdk McpServer) for the `search_notes`
// tool of examples/local-notes/agent.json: case-insensitive full-text search over the Markdown
// notes folder (NOTES_DIR, default ./notes next to this file). Deterministic: files in name
// order, lines in file order. Run: node examples/mcp/notes/server.mjs
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const dir = process.env.NOTES_DIR || fileURLToPath(new URL('./notes', import.meta.url));

function searchNotes(query) {
  const words = (query.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => w.length >= 3);
  const matches = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.md')).sort()) {
    const lines = readFileSync(join(dir, file), 'utf8').split('\n');
    lines.forEach((text, i) => {
      const lower = text.toLowerCase();
      const hits = words.filter((w) => lower.includes(w)).length;
      if (hits > 0) matches.push({ file, line: i + 1, hits, text: text.trim() });
    });
  }
  matches.sort((a, b) => b.hits - a.hits || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line);
  return { query, matches: matches.slice(0, 10) };
}

const server = new McpServer({ name: 'notes-mcp', version: '0.2.1' });
server.registerTool(
  'search_notes',
  {
    description: 'Full-text search over the Markdown notes folder; every match names its file and line.',
    inputSchema: { query: z.string().min(1).describe('Words to look for.') },
  },
  async ({ query }) => {
    const found = searchNotes(query);
    return { content: [{ type: 'text', text: JSON.stringify(found) }], structuredContent: found };
  },
);

await server.connect(new StdioServerTransport());
process.stdin.on('end', () => process.exit(0));
