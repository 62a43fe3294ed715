/**
 * The model record/replay server on real loopback sockets: a run recorded against a scripted
 * provider (the stand-in for the real one) replays with the provider gone and no key, with the
 * same answer; an unrecorded request fails saying so; what is written holds no secret however the
 * provider or the run echoes it; hostile folders and files are refused with the file named and
 * nothing written outside the folder; a file agentdef did not write is never replaced.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { secretKinds } from '../../definition/rules/secrets';
import { TEST_KEY, agenticConfig, calcTools, memorySink } from '../../runtime/__test-support__/configs';
import type { StubServer } from '../../runtime/__test-support__/stub-provider';
import { sendJson, startScriptedProvider, startServer } from '../../runtime/__test-support__/stub-provider';
import { generateReceiptKeyPair } from '../../runtime/receipts';
import { runAgent } from '../../runtime/run-agent';
import type { ProviderWire } from '../../runtime/runtime-config';
import { EXCHANGE_FORMAT, exchangeFileName, exchangeText, requestDigest } from './exchange';
import type { ModelProxy, ModelProxyOptions, ProxyEvent } from './model-proxy';
import { startModelProxy } from './model-proxy';
import { REPLAY_PLACEHOLDER_KEY, proxiedBaseUrl } from './proxy-routes';
import { loadRecording, recordFolderProblem, replayFolderProblem } from './recording-folder';

const base = mkdtempSync(join(tmpdir(), 'agentdef-model-proxy-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

let counter = 0;
/** A fresh workspace folder (with an nx.json) and a recording folder inside it. */
function workspace(): { root: string; folder: string } {
  const root = join(base, `ws-${++counter}`);
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'nx.json'), '{}\n');
  return { root, folder: join(root, 'recordings', 'session') };
}

async function proxy(
  options: Omit<ModelProxyOptions, 'display' | 'onEvent'> & { events?: ProxyEvent[] },
): Promise<ModelProxy> {
  const events = options.events ?? [];
  const started = await startModelProxy({
    display: 'recordings/session',
    credentialShapes: (text) => secretKinds(text),
    onEvent: (e) => events.push(e),
    ...options,
  });
  closers.push(() => started.close());
  return started;
}

async function stub(wire: ProviderWire = 'anthropic-messages'): Promise<StubServer & { baseUrl: string }> {
  const started = await startScriptedProvider({
    wire,
    ...(wire === 'ollama-chat' ? {} : { apiKey: TEST_KEY }),
    script: [
      { toolCalls: [{ name: 'add', arguments: { a: 19, b: 23 } }] },
      { text: (ctx) => `the sum is ${ctx.lastToolResults.join('')}` },
    ],
  });
  closers.push(() => started.close());
  return started;
}

let keys: { privateJwk: JsonWebKey; publicJwk: JsonWebKey } | undefined;
async function run(wire: ProviderWire, pinBase: string, proxyUrl: string, apiKey: string | undefined) {
  keys ??= await generateReceiptKeyPair();
  const config = agenticConfig(wire, proxiedBaseUrl(proxyUrl, wire, pinBase), { egress: { allow: [proxyUrl] } });
  const secrets: Record<string, string> = { RECEIPT_SIGNING_JWK: JSON.stringify(keys.privateJwk) };
  if (apiKey !== undefined) secrets[wire === 'openai-chat' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY'] = apiKey;
  return runAgent(
    config,
    { text: 'What is 19 + 23?' },
    { tools: calcTools, secrets, receipts: { sink: memorySink() } },
  );
}

/** Every file of a folder with its text. */
function files(folder: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(folder)
      .sort()
      .map((name) => [name, readFileSync(join(folder, name), 'utf8')]),
  );
}

describe('record, then replay with the provider gone and no key', () => {
  for (const wire of ['anthropic-messages', 'openai-chat', 'ollama-chat'] as const) {
    it(`${wire}: the same answer and receipt model ids; the files are the same bytes session after session`, async () => {
      const { root, folder } = workspace();
      const provider = await stub(wire);
      const apiKey = wire === 'ollama-chat' ? undefined : TEST_KEY;
      mkdirSync(folder, { recursive: true });
      const recorder = await proxy({ mode: 'record', folder, upstreams: [provider.baseUrl], secrets: [] });
      const live = await run(wire, provider.baseUrl, recorder.url, apiKey);
      expect(live.stopReason, JSON.stringify(live.error)).toBe('answer');
      expect(live.answer?.text).toBe('the sum is {"sum":42}');
      expect(live.modelsReplayed).toBeUndefined();
      const recorded = files(folder);
      expect(Object.keys(recorded)).toHaveLength(2);
      for (const [name, text] of Object.entries(recorded)) {
        expect(name).toMatch(/^[0-9a-f]{64}\.json$/);
        const exchange = JSON.parse(text);
        expect(exchange.format).toBe(EXCHANGE_FORMAT);
        expect(exchangeText(exchange)).toBe(text); // sorted keys, two spaces, final newline
        expect(text).not.toContain(TEST_KEY);
        expect(text).not.toMatch(/127\.0\.0\.1|x-api-key|authorization|created_at|"created"/i);
      }
      // A second session (against a fresh provider, on other ports) records the same bytes: nothing of
      // the run (run ids, clocks, ports, host names) is in the digest or the file.
      const provider2 = await stub(wire);
      const again = join(root, 'recordings', 'again');
      mkdirSync(again);
      const recorder2 = await proxy({ mode: 'record', folder: again, upstreams: [provider2.baseUrl], secrets: [] });
      await run(wire, provider2.baseUrl, recorder2.url, apiKey);
      expect(files(again)).toEqual(recorded);

      const served = provider.requests.length;
      await provider.close();
      const loaded = loadRecording(folder, 'recordings/session');
      expect(loaded.problems).toEqual([]);
      const events: ProxyEvent[] = [];
      const replayer = await proxy({ mode: 'replay', folder, exchanges: loaded.exchanges, secrets: [], events });
      const replayed = await run(
        wire,
        provider.baseUrl,
        replayer.url,
        wire === 'ollama-chat' ? undefined : REPLAY_PLACEHOLDER_KEY,
      );
      expect(replayed.stopReason, JSON.stringify(replayed.error)).toBe('answer');
      expect(replayed.answer).toEqual(live.answer);
      expect(replayed.modelsReplayed).toBe(true);
      expect(replayed.receipt?.models).toEqual(live.receipt?.models);
      expect(replayed.receipt?.modelsReplayed).toBe(true);
      expect(events.map((e) => e.kind)).toEqual(['replayed', 'replayed']);
      expect(provider.requests.length).toBe(served); // nothing reached the provider
    });
  }

  it('an unrecorded request fails the run with a provider error that says so, and the server reports wire, path and digest', async () => {
    const { folder } = workspace();
    mkdirSync(folder, { recursive: true });
    const events: ProxyEvent[] = [];
    const replayer = await proxy({ mode: 'replay', folder, exchanges: new Map(), secrets: [], events });
    const result = await run('anthropic-messages', 'https://api.anthropic.com', replayer.url, REPLAY_PLACEHOLDER_KEY);
    expect(result.stopReason).toBe('error');
    expect(result.error?.code).toBe('provider_http_error');
    expect(result.error?.message).toContain('model_request_not_recorded');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      kind: 'not-recorded',
      wire: 'anthropic-messages',
      method: 'POST',
      path: '/v1/messages',
    });
    expect((events[0] as { digest: string }).digest).toMatch(/^sha-256:[0-9a-f]{64}$/);
  });

  it('replay forwards nothing: a request for a base no recording holds is answered here, never sent on', async () => {
    const { folder } = workspace();
    mkdirSync(folder, { recursive: true });
    const provider = await stub();
    const replayer = await proxy({
      mode: 'replay',
      folder,
      exchanges: new Map(),
      upstreams: [provider.baseUrl],
      secrets: [],
    });
    const response = await fetch(
      `${proxiedBaseUrl(replayer.url, 'anthropic-messages', provider.baseUrl)}/v1/messages`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': REPLAY_PLACEHOLDER_KEY },
        body: JSON.stringify({
          model: 'm',
          max_tokens: 5,
          messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
        }),
      },
    );
    expect(response.status).toBe(404);
    expect(provider.requests).toEqual([]);
  });
});

describe('no secret is ever written', () => {
  const ENV_SECRET = 'env-secret-value-4a7Bq9ZrT2mK8xW1';
  const UNKNOWN_KEY = 'sk-ant-api03-UnknownKeyValue0123456789abcdefGHIJ';

  /** A provider that echoes whatever credential it was sent: in its body, in an error, and the request body back. */
  async function echoingProvider(): Promise<StubServer> {
    const server = await startServer((req, res) => {
      const key = req.headers['x-api-key'] ?? req.headers['authorization'] ?? '';
      // The key echoed in a response header too: headers are never written.
      res.setHeader('x-echoed-key', String(key));
      if (req.path.includes('fail'))
        return sendJson(res, 401, {
          type: 'error',
          error: { type: 'authentication_error', message: `invalid x-api-key ${key}` },
        });
      return sendJson(res, 200, {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        content: [{ type: 'text', text: `you sent ${key} and ${JSON.stringify(req.body)}` }],
        stop_reason: 'end_turn',
      });
    });
    closers.push(() => server.close());
    return server;
  }

  async function post(
    proxyUrl: string,
    upstream: string,
    path: string,
    headers: Record<string, string>,
    body: unknown,
  ): Promise<Response> {
    return fetch(`${proxiedBaseUrl(proxyUrl, 'anthropic-messages', upstream)}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  }

  it('a key echoed in the answer, in an answer header, in an error answer, in the request body and in the URL query is redacted in every form; headers are not written', async () => {
    const { folder } = workspace();
    mkdirSync(folder, { recursive: true });
    const provider = await echoingProvider();
    const events: ProxyEvent[] = [];
    const recorder = await proxy({ mode: 'record', folder, upstreams: [provider.url], secrets: [ENV_SECRET], events });
    const message = (text: string) => ({
      model: 'm',
      max_tokens: 5,
      messages: [{ role: 'user', content: [{ type: 'text', text }] }],
    });
    // The key in a header, echoed back in the answer body.
    expect(
      (await post(recorder.url, provider.url, '/v1/messages', { 'x-api-key': TEST_KEY }, message('hello'))).status,
    ).toBe(200);
    // The key echoed in an error answer (the answer reaches the caller as it came).
    const failed = await post(
      recorder.url,
      provider.url,
      '/v1/messages?fail=1',
      { authorization: `Bearer ${TEST_KEY}` },
      message('again'),
    );
    expect(failed.status).toBe(401);
    // A secret of the environment in the request body, and the key in the URL query.
    await post(
      recorder.url,
      provider.url,
      `/v1/messages?key=${encodeURIComponent(TEST_KEY)}`,
      { 'x-api-key': TEST_KEY },
      message(`my token is ${ENV_SECRET} (base64 ${Buffer.from(ENV_SECRET).toString('base64')})`),
    );
    const written = Object.values(files(folder)).join('\n');
    expect(events.filter((e) => e.kind === 'recorded')).toHaveLength(3);
    for (const secret of [
      TEST_KEY,
      ENV_SECRET,
      Buffer.from(TEST_KEY).toString('base64').slice(2, 20),
      Buffer.from(ENV_SECRET).toString('base64').slice(2, 20),
      encodeURIComponent(TEST_KEY),
    ]) {
      expect(written).not.toContain(secret);
    }
    expect(written).toContain('[redacted]');
    expect(written).not.toMatch(/x-api-key"|"authorization"|content-type|x-echoed-key/i);
    expect(written).toContain('authentication_error'); // the error answer is recorded, scrubbed
  });

  it('an exchange holding something shaped like a credential the session does not know is not written at all', async () => {
    const { folder } = workspace();
    mkdirSync(folder, { recursive: true });
    const provider = await echoingProvider();
    const events: ProxyEvent[] = [];
    const recorder = await proxy({ mode: 'record', folder, upstreams: [provider.url], secrets: [], events });
    const response = await post(
      recorder.url,
      provider.url,
      '/v1/messages',
      {},
      {
        model: 'm',
        max_tokens: 5,
        messages: [{ role: 'user', content: [{ type: 'text', text: `use ${UNKNOWN_KEY}` }] }],
      },
    );
    expect(response.status).toBe(200); // the run goes on
    expect(readdirSync(folder)).toEqual([]);
    expect(events).toEqual([
      expect.objectContaining({ kind: 'not-written', reason: expect.stringContaining('an Anthropic API key') }),
    ]);
    expect(JSON.stringify(events)).not.toContain(UNKNOWN_KEY);
  });

  it('the replay digest is taken after redaction, so a replay without the key matches what was recorded with it', async () => {
    const { folder } = workspace();
    mkdirSync(folder, { recursive: true });
    const provider = await echoingProvider();
    const recorder = await proxy({ mode: 'record', folder, upstreams: [provider.url], secrets: [] });
    await post(
      recorder.url,
      provider.url,
      '/v1/messages',
      { 'x-api-key': TEST_KEY },
      { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] },
    );
    await provider.close();
    const replayer = await proxy({
      mode: 'replay',
      folder,
      exchanges: loadRecording(folder, 'r').exchanges,
      secrets: [],
    });
    const replayed = await post(
      replayer.url,
      provider.url,
      '/v1/messages',
      { 'x-api-key': REPLAY_PLACEHOLDER_KEY },
      { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] },
    );
    expect(replayed.status).toBe(200);
    expect(replayed.headers.get('x-agentdef-model-replay')).toMatch(/^sha-256:/);
    expect(await replayed.text()).toContain('[redacted]');
  });
});

describe('record forwards only to a model pin base of the session', () => {
  it('a route naming any other base (or, for a local-only agent, a remote one) is refused and nothing is sent', async () => {
    const { folder } = workspace();
    mkdirSync(folder, { recursive: true });
    const allowed = await startScriptedProvider({ wire: 'anthropic-messages', script: [{ text: 'ok' }] });
    closers.push(() => allowed.close());
    const other = await startScriptedProvider({ wire: 'anthropic-messages', script: [{ text: 'exfiltrated' }] });
    closers.push(() => other.close());
    const events: ProxyEvent[] = [];
    const recorder = await proxy({ mode: 'record', folder, upstreams: [allowed.url], secrets: [], events });
    const body = JSON.stringify({
      model: 'm',
      max_tokens: 5,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }],
    });
    const refused = await fetch(`${proxiedBaseUrl(recorder.url, 'anthropic-messages', other.url)}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(refused.status).toBe(403);
    expect(other.requests).toEqual([]);
    const local = await proxy({
      mode: 'record',
      folder,
      upstreams: ['https://api.anthropic.com'],
      loopbackOnly: true,
      secrets: [],
    });
    const remote = await fetch(
      `${proxiedBaseUrl(local.url, 'anthropic-messages', 'https://api.anthropic.com')}/v1/messages`,
      { method: 'POST', body },
    );
    expect(remote.status).toBe(403);
    // Not a route at all: a path that tries to climb out, or garbage.
    for (const path of ['/m/anthropic-messages/../../etc/passwd', '/../x', '/m/unknown-wire/aGk/v1']) {
      const response = await fetch(`${recorder.url}${path}`, { method: 'POST', body });
      expect(response.status).toBe(404);
    }
    expect(readdirSync(folder)).toEqual([]);
    expect(events.every((e) => e.kind === 'refused')).toBe(true);
  });
});

describe('a web page cannot drive it', () => {
  it('a forged or rebinding Host is refused (421), and so is any request with an Origin (403), before anything is read, forwarded or written', async () => {
    const { folder } = workspace();
    mkdirSync(folder, { recursive: true });
    const provider = await startScriptedProvider({ wire: 'anthropic-messages', script: [{ text: 'ok' }] });
    closers.push(() => provider.close());
    const recorder = await proxy({ mode: 'record', folder, upstreams: [provider.url], secrets: [] });
    const port = new URL(recorder.url).port;
    const path = `/m/anthropic-messages/${proxiedBaseUrl('http://x', 'anthropic-messages', provider.url).split('/').pop()}/v1/messages`;
    const body = JSON.stringify({
      model: 'm',
      max_tokens: 5,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }],
    });
    const { request } = await import('node:http');
    const send = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: Number(port),
            path,
            method: 'POST',
            headers: { 'content-type': 'application/json', ...headers },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.once('error', reject);
        req.end(body);
      });
    expect(await send({ host: `evil.example:${port}` })).toBe(421);
    expect(await send({ host: `127.0.0.1:${Number(port) + 1}` })).toBe(421);
    expect(await send({ host: `127.0.0.1:${port}`, origin: 'https://evil.example' })).toBe(403);
    expect(await send({ host: `127.0.0.1:${port}`, origin: 'null' })).toBe(403);
    expect(provider.requests).toEqual([]);
    expect(readdirSync(folder)).toEqual([]);
    expect(await send({ host: `127.0.0.1:${port}` })).toBe(200);
    expect(readdirSync(folder)).toHaveLength(1);
  });
});

describe('hostile recording folders and files', () => {
  it('a replay folder outside the workspace, reached through a link or named directly, is refused; so is a record folder that is a link or outside', () => {
    const { root } = workspace();
    const outside = mkdtempSync(join(base, 'outside-'));
    symlinkSync(outside, join(root, 'linked'));
    expect(replayFolderProblem(join(root, 'linked'), root, 'linked')).toMatch(
      /outside the workspace \(a symbolic link on the way leads out of it\)/,
    );
    expect(replayFolderProblem(outside, root, '../outside')).toMatch(/outside the workspace/);
    expect(replayFolderProblem(join(root, 'missing'), root, 'missing')).toMatch(/does not exist/);
    writeFileSync(join(root, 'a-file'), 'x');
    expect(replayFolderProblem(join(root, 'a-file'), root, 'a-file')).toMatch(/is a file/);
    expect(recordFolderProblem(join(root, 'linked'), root, 'linked')).toMatch(/symbolic link/);
    expect(recordFolderProblem(join(root, 'linked', 'below'), root, 'linked/below')).toMatch(
      /leads out of the workspace/,
    );
    expect(recordFolderProblem(outside, root, '../outside')).toMatch(/outside the workspace/);
    expect(recordFolderProblem(root, root, '.')).toMatch(/workspace root/);
    expect(recordFolderProblem(join(root, 'recordings', 'new'), root, 'recordings/new')).toBeUndefined();
    expect(readdirSync(outside)).toEqual([]);
  });

  it('tampered exchange files are each reported with their name and what is wrong; none is served', () => {
    const { root, folder } = workspace();
    mkdirSync(folder, { recursive: true });
    const request = { wire: 'anthropic-messages' as const, method: 'POST', path: '/v1/messages', body: { model: 'm' } };
    const digest = requestDigest(request);
    const good = { format: EXCHANGE_FORMAT, digest, request, response: { status: 200, body: { content: [] } } };
    const other = requestDigest({ ...request, body: { model: 'other' } });
    const hex = (d: string) => d.replace('sha-256:', '');
    writeFileSync(join(folder, exchangeFileName(digest)), exchangeText(good as never));
    writeFileSync(join(folder, `${'a'.repeat(64)}.json`), '{ not json');
    writeFileSync(join(folder, `${'b'.repeat(64)}.json`), `{"format":"${EXCHANGE_FORMAT}","format":"x"}`);
    // The answer filed under another request's digest: the name and digest say one request, the request is another.
    writeFileSync(join(folder, exchangeFileName(other)), exchangeText({ ...good, digest: other } as never));
    writeFileSync(join(folder, `${'c'.repeat(64)}.json`), ' '.repeat(4 * 1024 * 1024 + 1));
    writeFileSync(join(root, 'elsewhere.json'), exchangeText(good as never));
    symlinkSync(join(root, 'elsewhere.json'), join(folder, `${'d'.repeat(64)}.json`));
    mkdirSync(join(folder, `${'e'.repeat(64)}.json`));
    writeFileSync(join(folder, 'README.md'), 'not an exchange: ignored\n');
    const loaded = loadRecording(folder, 'recordings/session');
    const byFile = Object.fromEntries(
      loaded.problems.map((p) => [p.where.replace('recordings/session/', ''), p.problem]),
    );
    expect(byFile[`${'a'.repeat(64)}.json`]).toMatch(/not strict JSON/);
    expect(byFile[`${'b'.repeat(64)}.json`]).toMatch(/not strict JSON \(duplicate/i);
    expect(byFile[exchangeFileName(other)]).toMatch(/does not have its digest/);
    expect(byFile[`${'c'.repeat(64)}.json`]).toMatch(/over the 4194304 an exchange may hold/);
    expect(byFile[`${'d'.repeat(64)}.json`]).toMatch(/symbolic link/);
    expect(byFile[`${'e'.repeat(64)}.json`]).toMatch(/not a regular file/);
    expect(Object.keys(byFile)).toHaveLength(6);
    expect(loaded.exchanges.has(digest)).toBe(true);
    expect(hex(digest)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('record never replaces a file agentdef did not write (a foreign file, a link) and writes nothing outside the folder', async () => {
    const { root, folder } = workspace();
    mkdirSync(folder, { recursive: true });
    const provider = await startScriptedProvider({ wire: 'anthropic-messages', script: [{ text: 'ok' }] });
    closers.push(() => provider.close());
    const body = { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }] };
    const target = exchangeFileName(
      requestDigest({ wire: 'anthropic-messages', method: 'POST', path: '/v1/messages', body }),
    );
    const body2 = { ...body, max_tokens: 6 };
    const target2 = exchangeFileName(
      requestDigest({ wire: 'anthropic-messages', method: 'POST', path: '/v1/messages', body: body2 }),
    );
    writeFileSync(join(folder, target), 'my notes, not an exchange\n');
    const victim = join(root, 'victim.txt');
    writeFileSync(victim, 'keep me\n');
    symlinkSync(victim, join(folder, target2));
    const events: ProxyEvent[] = [];
    const recorder = await proxy({ mode: 'record', folder, upstreams: [provider.url], secrets: [], events });
    for (const sent of [body, body2]) {
      const response = await fetch(`${proxiedBaseUrl(recorder.url, 'anthropic-messages', provider.url)}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(sent),
      });
      expect(response.status).toBe(200);
    }
    expect(readFileSync(join(folder, target), 'utf8')).toBe('my notes, not an exchange\n');
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n');
    expect(events.map((e) => [e.kind, 'reason' in e ? e.reason : ''])).toEqual([
      ['not-written', expect.stringContaining('is not an exchange agentdef wrote')],
      ['not-written', expect.stringContaining('symbolic link')],
    ]);
    expect(readdirSync(folder).sort()).toEqual([target, target2].sort());
    expect(existsSync(join(root, 'recordings', target))).toBe(false);
  });
});
