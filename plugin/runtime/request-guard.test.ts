import { describe, expect, it } from 'vitest';
import {
  busy,
  hostAllowed,
  isJsonContentType,
  loopbackOrigins,
  originAllowed,
  parseOrigin,
  parseOriginList,
  readBodyText,
  refusal,
  tooLarge,
} from './request-guard';

const allowed = [...loopbackOrigins(8080), 'https://agents.example.com', 'http://splice-resolver:8080'];

describe('the Host check', () => {
  it('accepts exactly the loopback names with the served port and the configured origins', () => {
    for (const host of [
      '127.0.0.1:8080',
      'localhost:8080',
      'LocalHost:8080',
      '[::1]:8080',
      'agents.example.com',
      'agents.example.com:443',
      'splice-resolver:8080',
    ])
      expect(hostAllowed(host, allowed), host).toBe(true);
  });

  it('refuses forged, rebinding and look-alike hosts, whatever a URL parser would make of them', () => {
    const forged = [
      undefined,
      null,
      '',
      'evil.example',
      '127.0.0.1',
      '127.0.0.1:8081',
      '127.0.0.1.evil.example:8080',
      'localhost:8080.evil.example',
      'localhost:1@evil.example',
      'localhost:8080@evil.example',
      'evil.example#@localhost:8080',
      'localhost:8080 ',
      ' localhost:8080',
      'localhost:08080',
      '[::1]',
      '[0:0:0:0:0:0:0:1]:8080',
      '2130706433:8080',
      'agents.example.com:80',
      'agents.example.com.evil.example',
      'splice-resolver',
      'splice-resolver:8080\r\nx: y',
    ];
    for (const host of forged) expect(hostAllowed(host, allowed), String(host)).toBe(false);
  });
});

describe('the Origin check', () => {
  it('accepts no Origin (not a browser) and exactly an allowed origin', () => {
    expect(originAllowed(null, allowed)).toBe(true);
    expect(originAllowed(undefined, allowed)).toBe(true);
    expect(originAllowed('https://agents.example.com', allowed)).toBe(true);
    expect(originAllowed('http://localhost:8080', allowed)).toBe(true);
  });

  it('refuses cross-site, opaque and look-alike origins', () => {
    for (const origin of [
      'null',
      '',
      'https://evil.example',
      'http://agents.example.com',
      'https://agents.example.com.evil.example',
      'https://agents.example.com:444',
      'http://localhost:3000',
      'https://agents.example.com/path',
      'file://',
    ]) {
      expect(originAllowed(origin, allowed), origin).toBe(false);
    }
  });
});

describe('the JSON content type of a JSON-RPC POST', () => {
  it('accepts application/json and application/a2a+json with parameters, in any case', () => {
    for (const type of [
      'application/json',
      'Application/JSON',
      'application/json; charset=utf-8',
      'application/a2a+json',
      ' application/json ;charset=UTF-8',
    ])
      expect(isJsonContentType(type), type).toBe(true);
  });

  it('refuses the simple-request types a page can send without a preflight, and look-alikes', () => {
    for (const type of [
      null,
      undefined,
      '',
      'text/plain',
      'text/plain; charset=utf-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonp',
      'text/json',
      'application/json-patch+json',
      'application/json,text/plain',
    ]) {
      expect(isJsonContentType(type), String(type)).toBe(false);
    }
  });
});

describe('configured origins', () => {
  it('normalises an origin and refuses anything that is not one, without echoing credentials or control characters', () => {
    expect(parseOrigin('HTTP://Agents.Example.com:80/')).toEqual({ origin: 'http://agents.example.com' });
    expect(parseOrigin(' https://agents.example.com:8443 ')).toEqual({ origin: 'https://agents.example.com:8443' });
    for (const [text, problem] of [
      ['http://user:hunter2@agents.example.com', 'user name or password'],
      ['user:hunter2@agents.example.com', ''],
      ['https://agents.example.com/a2a', 'origin only'],
      ['https://agents.example.com/?q=1', 'origin only'],
      ['ws://agents.example.com', 'http or https'],
      ['agents.example.com', 'not a URL'],
      ['\u001b]0;owned\u0007', 'not a URL'],
    ] as const) {
      const parsed = parseOrigin(text);
      expect('problem' in parsed, text).toBe(true);
      const message = (parsed as { problem: string }).problem;
      expect(message).toContain(problem);
      expect(message).not.toContain('hunter2');
      expect([...message].filter((c) => c.charCodeAt(0) < 0x20)).toEqual([]);
    }
  });

  it('reads a comma-separated list, skipping blanks and duplicates, stopping at the first bad one', () => {
    expect(parseOriginList(undefined)).toEqual({ origins: [] });
    expect(parseOriginList(' , ')).toEqual({ origins: [] });
    expect(parseOriginList('http://a:8080, https://b.example,http://a:8080')).toEqual({
      origins: ['http://a:8080', 'https://b.example'],
    });
    expect(parseOriginList('http://a:8080,https://b.example/x')).toHaveProperty('problem');
  });
});

describe('refusals', () => {
  it('are JSON-RPC errors with a null id, the status that says why, and Retry-After when busy', async () => {
    const refused = refusal(421, 'Misdirected request');
    expect(refused.status).toBe(421);
    expect(await refused.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Misdirected request' },
    });
    expect((await tooLarge(10).json()).error.message).toBe('Request payload too large (the limit is 10 bytes)');
    const full = busy(8);
    expect(full.status).toBe(503);
    expect(full.headers.get('retry-after')).toBe('1');
    expect(await full.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32000,
        message: 'The agent is busy (8 requests in flight); retry after 1 s',
        data: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1s' }],
      },
    });
  });
});

describe('reading a body with a limit', () => {
  it('reads UTF-8 within the limit, counting bytes not characters', async () => {
    expect(await readBodyText(new Request('http://x/', { method: 'POST', body: 'héllo' }), 6)).toBe('héllo');
    expect(await readBodyText(new Request('http://x/', { method: 'POST', body: 'héllo' }), 5)).toBe('too-large');
    expect(await readBodyText(new Request('http://x/'), 0)).toBe('');
  });

  it('stops reading a stream without a declared length as soon as it passes the limit', async () => {
    let pulled = 0;
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(1024));
      },
      cancel() {
        cancelled = true;
      },
    });
    const request = new Request('http://x/', { method: 'POST', body: endless, duplex: 'half' } as RequestInit);
    expect(await readBodyText(request, 10_000)).toBe('too-large');
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThan(20);
  });

  it('bounds a body whose declared Content-Length lies (as a service-binding caller can on workerd)', async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(1024).fill(97));
      },
    });
    const request = new Request('http://x/', {
      method: 'POST',
      headers: { 'content-length': '10' },
      body: endless,
      duplex: 'half',
    } as RequestInit);
    expect(await readBodyText(request, 10_000)).toBe('too-large');
    expect(pulled).toBeLessThan(20);
  });

  it('joins a body that arrives in several chunks, a character split across two of them', async () => {
    const bytes = new TextEncoder().encode('{"text":"héllo wörld"}');
    const split = bytes.indexOf(0xc3) + 1; // inside the two bytes of é
    const chunks = [bytes.slice(0, split), bytes.slice(split, split + 5), bytes.slice(split + 5)];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const request = new Request('http://x/', { method: 'POST', body, duplex: 'half' } as RequestInit);
    expect(await readBodyText(request, bytes.byteLength)).toBe('{"text":"héllo wörld"}');
  });
});
