import { afterEach, describe, expect, it } from 'vitest';
import { ADD_TOOL, agenticConfig, pin } from './__test-support__/configs';
import type { StubServer } from './__test-support__/stub-provider';
import { sendJson, startServer } from './__test-support__/stub-provider';
import { EgressBlockedError, createEgressFetch, egressAllowList } from './egress';
import { RuntimeError } from './errors';

const servers: StubServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('egress allow-list', () => {
  it('lets allowed origins through', async () => {
    const server = await startServer((_req, res) => sendJson(res, 200, { ok: true }));
    servers.push(server);
    const egress = createEgressFetch({ allow: [server.url] });
    const response = await egress(`${server.url}/anything?x=1`);
    expect(await response.json()).toEqual({ ok: true });
  });

  it('blocks other hosts with egress_blocked naming the host, never the path or query', async () => {
    const blocked: string[] = [];
    const egress = createEgressFetch({ allow: ['https://api.openai.com'], onBlocked: (h) => blocked.push(h), fetch: () => Promise.reject(new Error('must not be called')) });
    const error = await rejection(egress('https://evil.example:8443/steal/path?token=abc123'));
    expect(error).toBeInstanceOf(EgressBlockedError);
    expect(error).toBeInstanceOf(RuntimeError);
    const e = error as EgressBlockedError;
    expect(e.code).toBe('egress_blocked');
    expect(e.host).toBe('evil.example:8443');
    expect(e.message).toContain('egress_blocked');
    expect(e.message).toContain('evil.example:8443');
    expect(e.message).not.toContain('steal');
    expect(e.message).not.toContain('abc123');
    expect(blocked).toEqual(['evil.example:8443']);
  });

  it('treats scheme and port as part of the origin', async () => {
    const egress = createEgressFetch({ allow: ['https://api.example.com'], fetch: () => Promise.reject(new Error('must not be called')) });
    await expect(egress('http://api.example.com/x')).rejects.toMatchObject({ code: 'egress_blocked' });
    await expect(egress('https://api.example.com:444/x')).rejects.toMatchObject({ code: 'egress_blocked' });
    await expect(egress(new Request('https://other.example.com/'))).rejects.toMatchObject({ code: 'egress_blocked' });
  });

  it('does not let a redirect escape the list, and follows allowed redirects by hand', async () => {
    const outside = await startServer((_req, res) => sendJson(res, 200, { outside: true }));
    servers.push(outside);
    const inside = await startServer((req, res) => {
      if (req.path === '/hop') {
        res.writeHead(302, { location: '/final' });
        return res.end();
      }
      if (req.path === '/escape') {
        res.writeHead(307, { location: `${outside.url}/grab` });
        return res.end();
      }
      return sendJson(res, 200, { final: true, auth: req.headers['authorization'] ?? null });
    });
    servers.push(inside);
    const egress = createEgressFetch({ allow: [inside.url] });
    const followed = await egress(`${inside.url}/hop`, { headers: { authorization: 'Bearer x' } });
    expect(await followed.json()).toEqual({ final: true, auth: 'Bearer x' });
    await expect(egress(`${inside.url}/escape`)).rejects.toMatchObject({ code: 'egress_blocked', host: `127.0.0.1:${outside.port}` });
    expect(outside.requests).toHaveLength(0);
  });

  it('derives the allow-list from the model pins, the tools and the config', () => {
    const config = agenticConfig('openai-chat', 'http://127.0.0.1:9999/v1', {
      models: [pin('openai-chat', 'http://127.0.0.1:9999/v1'), pin('anthropic-messages', 'https://api.anthropic.com', { role: 'router' }), { ...pin('ollama-chat', 'x'), baseUrl: undefined } as never],
      tools: [
        { ...ADD_TOOL, endpoints: ['https://tools.example.com/api/v1'] },
        { ...ADD_TOOL, id: 'mcp', kind: 'mcp-http', url: 'https://mcp.example.com/mcp' },
      ],
      egress: { allow: ['https://extra.example.com'] },
    });
    expect(egressAllowList(config)).toEqual(['http://127.0.0.1:11434', 'http://127.0.0.1:9999', 'https://api.anthropic.com', 'https://extra.example.com', 'https://mcp.example.com', 'https://tools.example.com']);
  });
});
