import { afterEach, describe, expect, it } from 'vitest';
import { ADD_TOOL, agenticConfig, pin } from './__test-support__/configs';
import type { StubServer } from './__test-support__/stub-provider';
import { sendJson, startServer } from './__test-support__/stub-provider';
import { EgressBlockedError, createEgressFetch, egressAllowList, egressBlockedCause } from './egress';
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
    const egress = createEgressFetch({
      allow: ['https://api.openai.com'],
      onBlocked: (h) => blocked.push(h),
      fetch: () => Promise.reject(new Error('must not be called')),
    });
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
    const egress = createEgressFetch({
      allow: ['https://api.example.com'],
      fetch: () => Promise.reject(new Error('must not be called')),
    });
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
    await expect(egress(`${inside.url}/escape`)).rejects.toMatchObject({
      code: 'egress_blocked',
      host: `127.0.0.1:${outside.port}`,
    });
    expect(outside.requests).toHaveLength(0);
  });

  it('derives the allow-list from the model pins, the tools and the config', () => {
    const config = agenticConfig('openai-chat', 'http://127.0.0.1:9999/v1', {
      models: [
        pin('openai-chat', 'http://127.0.0.1:9999/v1'),
        pin('anthropic-messages', 'https://api.anthropic.com', { role: 'router' }),
        { ...pin('ollama-chat', 'x'), baseUrl: undefined } as never,
      ],
      tools: [
        { ...ADD_TOOL, endpoints: ['https://tools.example.com/api/v1'] },
        { ...ADD_TOOL, id: 'mcp', kind: 'mcp-http', url: 'https://mcp.example.com/mcp' },
      ],
      egress: { allow: ['https://extra.example.com'] },
    });
    expect(egressAllowList(config)).toEqual([
      'http://127.0.0.1:11434',
      'http://127.0.0.1:9999',
      'https://api.anthropic.com',
      'https://extra.example.com',
      'https://mcp.example.com',
      'https://tools.example.com',
    ]);
  });

  it("follows the Fetch standard's redirect modes: manual hands the redirect back, error rejects, neither reaches the target", async () => {
    const target = await startServer((_req, res) => sendJson(res, 200, { target: true }));
    servers.push(target);
    const inside = await startServer((_req, res) => {
      res.writeHead(302, { location: `${target.url}/x` });
      res.end();
    });
    servers.push(inside);
    const egress = createEgressFetch({ allow: [inside.url, target.url] });
    const manual = await egress(`${inside.url}/r`, { redirect: 'manual' });
    expect(manual.status).toBe(302);
    expect(manual.headers.get('location')).toBe(`${target.url}/x`);
    await expect(egress(`${inside.url}/r`, { redirect: 'error' })).rejects.toBeInstanceOf(TypeError);
    await expect(egress(new Request(`${inside.url}/r`, { redirect: 'error' }))).rejects.toBeInstanceOf(TypeError);
    expect(target.requests).toHaveLength(0);
    const followed = await egress(`${inside.url}/r`);
    expect(await followed.json()).toEqual({ target: true });
    expect(target.requests).toHaveLength(1);
  });

  it('turns a POST into a GET on 301, 302 and 303 only, as the Fetch standard does, and keeps it on 307 and 308', async () => {
    const seen: string[] = [];
    const server = await startServer((req, res) => {
      seen.push(
        `${req.method} ${req.path} ${typeof req.body === 'string' || req.body === undefined ? (req.body ?? '') : JSON.stringify(req.body)}`,
      );
      const status = Number(req.path.slice(1));
      if (status >= 300) {
        res.writeHead(status, { location: '/done' });
        return res.end();
      }
      return sendJson(res, 200, {});
    });
    servers.push(server);
    const egress = createEgressFetch({ allow: [server.url] });
    for (const status of [301, 302, 303, 307, 308])
      await egress(`${server.url}/${status}`, { method: 'POST', body: 'b' });
    expect(seen.filter((line) => line.includes('/done'))).toEqual([
      'GET /done ',
      'GET /done ',
      'GET /done ',
      'POST /done b',
      'POST /done b',
    ]);
  });

  it('reads userinfo as the URL standard does and never repeats credentials', async () => {
    const egress = createEgressFetch({
      allow: ['https://allowed.example'],
      fetch: () => Promise.reject(new Error('must not be called')),
    });
    await expect(egress('https://allowed.example@evil.example/x?token=abc')).rejects.toMatchObject({
      code: 'egress_blocked',
      host: 'evil.example',
    });
    const error = await rejection(egress('https://user:hunter2-password@allowed.example/x'));
    expect(error).toBeInstanceOf(TypeError);
    expect(String((error as Error).message)).not.toContain('hunter2');
    expect(String((error as Error).message)).toContain('allowed.example');
    const invalid = await rejection(egress('https://user:hunter2-password@[bad/x'));
    expect(String((invalid as Error).message)).not.toContain('hunter2');
  });

  it('refuses a redirect to a URL with credentials without repeating them', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(302, { location: `http://user:hunter2-password@127.0.0.1:${new URL(server.url).port}/x` });
      res.end();
    });
    servers.push(server);
    const egress = createEgressFetch({ allow: [server.url] });
    const error = await rejection(egress(`${server.url}/r`));
    expect(error).toBeInstanceOf(TypeError);
    expect(String((error as Error).message)).not.toContain('hunter2');
    expect(server.requests).toHaveLength(1);
  });

  it("finds the egress refusal a client library wrapped (undici's fetch failed, an AggregateError)", () => {
    const refusal = new EgressBlockedError('evil.example:443');
    expect(egressBlockedCause(new TypeError('fetch failed', { cause: refusal }))).toBe(refusal);
    expect(egressBlockedCause(new AggregateError([new Error('a'), new Error('b', { cause: refusal })]))).toBe(refusal);
    expect(egressBlockedCause(new TypeError('fetch failed', { cause: new Error('ECONNREFUSED') }))).toBeUndefined();
    const loop: { cause?: unknown } = {};
    loop.cause = loop;
    expect(egressBlockedCause(loop)).toBeUndefined();
    expect(egressBlockedCause('egress_blocked')).toBeUndefined();
  });
});
