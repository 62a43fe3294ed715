/**
 * The local-mac adapter on the repository's examples: the launcher, its manifest, the MCP server
 * table from mcp.json, the LaunchAgent and systemd templates; a stdio server missing from mcp.json
 * is a located compile error; outputs are deterministic and hold no absolute path.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { emitAgent, planAgent } from '../../compiler/compile';
import { loadWorkspaceConfig } from '../../compiler/workspace-config';

const REPO = join(__dirname, '..', '..', '..');
const temps: string[] = [];
afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function emit(slug: string, workspaceRoot = REPO) {
  const file = join(workspaceRoot, 'examples', slug, slug === 'pdf-extractor' ? 'agent.yaml' : 'agent.json');
  const planned = await planAgent({ file, workspaceRoot, target: 'local-mac' });
  return emitAgent(
    { plan: planned.plan!, resolved: planned.resolved! },
    { workspaceRoot, workspace: loadWorkspaceConfig(workspaceRoot).config },
  );
}

describe('the local-mac adapter', () => {
  it('emits the launcher, its manifest, the MCP servers it starts and the two service templates', async () => {
    const result = await emit('local-notes');
    const files = Object.fromEntries(result.files!.map((f) => [f.path, f.contents]));
    expect(Object.keys(files)).toEqual([
      'agentdef-local-notes.service',
      'dev.agentdef.local-notes.plist',
      'launch.mjs',
      'launcher.json',
      'mcp-servers.json',
      'plan.json',
    ]);
    expect(JSON.parse(files['launcher.json']!)).toMatchObject({
      agent: 'local-notes@0.3.0',
      entry: 'launch.mjs',
      heapMb: 768,
      localOnly: true,
      mcpServers: ['notes-mcp'],
      secrets: ['AGENTDEF_RECEIPT_KEY'],
    });
    expect(JSON.parse(files['mcp-servers.json']!)).toEqual({
      cwd: 'workspace',
      servers: {
        'notes-mcp': {
          command: 'node',
          args: ['examples/mcp/notes/server.mjs'],
          env: {},
          tools: [{ tool: 'search_notes', toolId: 'notes-search', agent: 'local-notes@0.3.0' }],
        },
      },
    });
    expect(files['dev.agentdef.local-notes.plist']).toContain('<string>dev.agentdef.local-notes</string>');
    expect(files['agentdef-local-notes.service']).toContain(
      'ExecStart="@@NODE@@" --max-old-space-size=768 "@@LAUNCHER@@" --port @@PORT@@',
    );
    // The launcher carries the MCP SDK client and the Ollama client.
    expect(files['launch.mjs']).toContain('StdioClientTransport already started');
    expect(files['launch.mjs']).toContain('/api/chat');
  });

  it('is not local-only for an agent that may run elsewhere', async () => {
    const result = await emit('fallback-writer');
    expect(JSON.parse(result.files!.find((f) => f.path === 'launcher.json')!.contents)).toMatchObject({
      localOnly: false,
      secrets: ['AGENTDEF_RECEIPT_KEY', 'ANTHROPIC_API_KEY'],
    });
  });

  it('emits the same bytes twice, with no absolute path of this machine', async () => {
    const first = await emit('code-search');
    expect((await emit('code-search')).files).toEqual(first.files);
    for (const f of first.files!)
      for (const local of [REPO, `${tmpdir()}/`, `${homedir()}/`])
        expect(f.contents.includes(local), `${f.path} contains ${local}`).toBe(false);
  });

  it('fails at compile time, located, when mcp.json does not declare a stdio server the agent uses', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'agentdef-local-'));
    temps.push(ws);
    writeFileSync(join(ws, 'nx.json'), '{}');
    cpSync(join(REPO, 'examples'), join(ws, 'examples'), { recursive: true });
    writeFileSync(
      join(ws, 'mcp.json'),
      JSON.stringify({ servers: { 'notes-mcp': { command: 'node', args: ['x.mjs'] } } }),
    );
    const result = await emit('code-search', ws);
    expect(result.files).toBeUndefined();
    expect(result.diagnostics!.map((d) => [d.file, d.path, d.message])).toEqual([
      [
        'examples/code-search/agent.json',
        '/toolInventory/0/mcpServer',
        'MCP server "code-search-index" of tool "search" is not declared in the workspace\'s mcp.json',
      ],
    ]);
  });
});
