/**
 * A URL the WHATWG parser refuses never reaches an emitter (issue 23: `https://web.archive.org^1.2.3`
 * as a tool endpoint ended the Worker compile in "emit: internal error", and compiled for HB3 into
 * a host that would not start). On every target (cloudflare-dynamic-worker, hb3, kubernetes, local-mac), the
 * same definition with a well-formed endpoint compiles, and with each malformed endpoint of the
 * table fails with one located `url-fields` diagnostic (file:line:column, JSON Pointer, what to
 * write), never an internal error, and writes nothing. An MCP server URL in mcp.json is read the
 * same way.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MALFORMED_ENDPOINTS } from '../runtime/__test-support__/malformed-urls';
import type { CompileTarget } from '../targets/targets';
import { compileAgent } from './compile';
import { agent, json, positionOf, tempWorkspace, tools, type TempWorkspace } from './test-support';

const TARGETS: readonly CompileTarget[] = ['cloudflare-dynamic-worker', 'hb3', 'kubernetes', 'local-mac'];
const FILE = 'agents/probe/agent.json';

let ws: TempWorkspace;
beforeAll(() => {
  ws = tempWorkspace({
    'tools.json': { tools: { fetch: { module: './tools/fetch.ts', export: 'fetchPage' } } },
    'tools/fetch.ts': 'export async function fetchPage(args: { url: string }) { return { url: args.url }; }\n',
  });
});
afterAll(() => ws.remove());

/** The probe agent's text with `endpoint` as its one tool's second endpoint. */
function definitionWith(endpoint: string): string {
  return json(
    agent('probe', '1.0.0', {
      tools: [{ ...tools.skill('fetch'), endpoints: ['https://fetch.acme.dev', endpoint] }],
    }),
  );
}

describe.each(TARGETS)('compiling for %s', (target) => {
  it('compiles the agent with a well-formed endpoint (the control)', async () => {
    ws.write(FILE, definitionWith('https://web.archive.org'));
    const outDir = `dist/ok-${target}`;
    const result = await compileAgent({ file: FILE, workspaceRoot: ws.root, target, outDir });
    expect(result.ioError).toBeUndefined();
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(result.target).toBe(target);
    expect(existsSync(join(ws.root, outDir, 'plan.json'))).toBe(true);
  });

  it.each(MALFORMED_ENDPOINTS.map((m) => [m.url, m.problem] as const))(
    'refuses the endpoint %j, located, and writes nothing',
    async (url, problem) => {
      const text = definitionWith(url);
      ws.write(FILE, text);
      const outDir = `dist/bad-${target}`;
      const result = await compileAgent({ file: FILE, workspaceRoot: ws.root, target, outDir });
      expect(result.ioError).toBeUndefined();
      const errors = result.diagnostics.filter((d) => d.severity === 'error');
      for (const d of errors) expect(d.message).not.toMatch(/internal error/);
      const at = positionOf(text, JSON.stringify(url));
      expect(errors.filter((d) => d.rule === 'url-fields')).toEqual([
        {
          code: 'agent_definition_invalid',
          rule: 'url-fields',
          severity: 'error',
          file: FILE,
          path: '/toolInventory/0/endpoints/1',
          line: at.line,
          column: at.column,
          message: expect.stringMatching(problem),
          suggestion: expect.stringMatching(/^write |^give /),
        },
      ]);
      expect(result.files).toBeUndefined();
      expect(existsSync(join(ws.root, outDir))).toBe(false);
    },
  );

  it('refuses an MCP server URL in mcp.json that the parser refuses, located in mcp.json', async () => {
    const mcp = ws.write('mcp.json', { servers: { 'search-server': { url: 'http://search.internal:99999/mcp' } } });
    try {
      ws.write(FILE, json(agent('probe', '1.0.0', { tools: [tools.http('search')] })));
      const outDir = `dist/mcp-${target}`;
      const result = await compileAgent({ file: FILE, workspaceRoot: ws.root, target, outDir });
      expect(result.ioError).toBeUndefined();
      const errors = result.diagnostics.filter((d) => d.severity === 'error');
      expect(errors).toEqual([
        expect.objectContaining({
          rule: 'workspace-config',
          file: 'mcp.json',
          path: '/servers/search-server/url',
          message: expect.stringMatching(
            /^server "search-server": url is not a URL the WHATWG URL parser accepts: its port is above 65535/,
          ),
        }),
      ]);
      expect(existsSync(join(ws.root, outDir))).toBe(false);
    } finally {
      ws.write('mcp.json', { servers: {} });
      expect(existsSync(mcp)).toBe(true);
    }
  });
});
