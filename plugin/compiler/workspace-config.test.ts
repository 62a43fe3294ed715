/**
 * tools.json and mcp.json hold no literal credentials: every string and key is scanned like a
 * definition's, an MCP server URL may not carry userinfo, and no message or printed source line
 * repeats what was found.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatDiagnostics } from '../definition/format-diagnostics';
import { tempWorkspace, type TempWorkspace } from './test-support';
import { loadWorkspaceConfig } from './workspace-config';

// Built at run time so no scanner of this repository mistakes the fixtures for real keys.
const GITHUB = ['ghp', '_', 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'].join('');
const ANTHROPIC = ['sk', '-ant-', 'api03-', 'x'.repeat(40)].join('');

let ws: TempWorkspace | undefined;
afterEach(() => ws?.remove());

function load(files: Record<string, object>) {
  ws = tempWorkspace(files);
  const root = ws.root;
  const { diagnostics } = loadWorkspaceConfig(root);
  // With the files' text at hand the printer would show the offending line: it must not.
  const sources = new Map(Object.keys(files).map((name) => [name, readFileSync(join(root, name), 'utf8')] as const));
  return { diagnostics, printed: formatDiagnostics(diagnostics, { format: 'text', sources }) };
}

describe('literal credentials in tools.json and mcp.json', () => {
  it('finds a token in any field of tools.json, located, without repeating it', () => {
    const { diagnostics, printed } = load({
      'tools.json': {
        tools: { 'web.fetch': { module: './tools/fetch.ts', export: 'fetchPage', note: `token ${GITHUB}` } },
      },
    });
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({
      severity: 'error',
      file: 'tools.json',
      path: '/tools/web.fetch/note',
      line: 6,
      redactSource: true,
    });
    expect(diagnostics[0]!.message).toMatch(/looks like .*GitHub.*tools\.json \(the value is not shown\)/);
    expect(printed).not.toContain(GITHUB);
  });

  it('finds a key passed as an MCP server argument, and refuses userinfo in a server URL', () => {
    const { diagnostics, printed } = load({
      'mcp.json': {
        servers: {
          files: { command: 'node', args: ['server.mjs', `--key=${ANTHROPIC}`] },
          remote: { url: 'https://deploy-token@mcp.example.com/mcp' },
          both: { url: `https://user:${GITHUB}@mcp.example.com/mcp` },
        },
      },
    });
    expect(diagnostics.map((d) => d.path).sort()).toEqual([
      '/servers/both/url',
      '/servers/files/args/1',
      '/servers/remote/url',
    ]);
    for (const d of diagnostics) expect(d).toMatchObject({ severity: 'error', file: 'mcp.json', redactSource: true });
    expect(printed).not.toContain(ANTHROPIC);
    expect(printed).not.toContain(GITHUB);
    expect(printed).not.toContain('deploy-token');
  });

  it('accepts ordinary files', () => {
    const { diagnostics } = load({
      'tools.json': { tools: { 'web.fetch': { module: './tools/fetch.ts', export: 'fetchPage' } } },
      'mcp.json': {
        servers: {
          files: { command: 'node', args: ['server.mjs', '--root=./data'], env: { API_KEY: 'secret:FILES_KEY' } },
          remote: { url: 'https://mcp.example.com/mcp/@team' },
        },
      },
    });
    expect(diagnostics).toEqual([]);
  });
});
