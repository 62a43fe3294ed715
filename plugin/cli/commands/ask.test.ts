/**
 * `agentdef ask` against a real A2A host on loopback: the runtime's A2A handler (what every host
 * serves) behind a `node:http` server on 127.0.0.1, a tool-only agent so no model is needed. The
 * host returns each run's signed receipt in the task's `metadata.receipt`; the tamper cases
 * change it on its way to the client. The key store `ask` may read is a folder of the test's own.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { calcTools, memorySink, toolOnlyConfig } from '../../runtime/__test-support__/configs';
import { SUPPORT_SECRETS, startSupportDesk } from '../../runtime/__test-support__/hybrid-script';
import type { ServedHandler } from '../../runtime/__test-support__/serve-handler';
import { serveHandler } from '../../runtime/__test-support__/serve-handler';
import { createA2aHandler } from '../../runtime/a2a-handler';
import { AGENT_CARD_PATH } from '../../runtime/agent-card';
import { signAgentCard } from '../../runtime/card-signature';
import { jwkThumbprint } from '../../runtime/jwk-thumbprint';
import { generateReceiptKeyPair } from '../../runtime/receipts';
import type { RuntimeConfig } from '../../runtime/runtime-config';
import { runAskCommand } from './ask';
import { MAX_CARD_BYTES } from './ask-fetch';

const root = mkdtempSync(join(tmpdir(), 'agentdef-cli-ask-'));
/** The key store `ask` reads for `keyref:` kids: a folder of this test's own, empty unless a test puts a key in it. */
const keysFolder = join(root, 'keys');
vi.stubEnv('AGENTDEF_KEYS_DIR', keysFolder);
vi.stubEnv('AGENTDEF_KEYCHAIN', 'off');
const closers: { close(): Promise<void> }[] = [];
let keys: { privateJwk: JsonWebKey; publicJwk: JsonWebKey };
let otherKeys: { privateJwk: JsonWebKey; publicJwk: JsonWebKey };
beforeAll(async () => {
  keys = await generateReceiptKeyPair();
  otherKeys = await generateReceiptKeyPair();
  writeFileSync(join(root, 'public.jwk.json'), JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: keys.publicJwk.x }));
  writeFileSync(join(root, 'other.jwk.json'), JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: otherKeys.publicJwk.x }));
  writeFileSync(join(root, 'private.jwk.json'), JSON.stringify(keys.privateJwk));
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c.close()));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function ask(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runAskCommand(argv, { cwd: root, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
}

interface HostOptions {
  config?: RuntimeConfig;
  /** Change the receipt the host returns in the task's metadata.receipt on its way to the client. */
  changeReceipt?: (receipt: Record<string, unknown>) => Record<string, unknown>;
  /** Publish this public JWK in the served card's signature header. */
  publishKey?: boolean;
  /** Serve a card that does not declare streaming. */
  withoutStreaming?: boolean;
  /** Secret values the host resolves (a model agent's keys). */
  secrets?: Record<string, string>;
}

/** A real A2A host on 127.0.0.1 serving a tool-only adder whose receipts are signed with `keys`. */
async function host(
  options: HostOptions = {},
): Promise<{ served: ServedHandler; receipts: Record<string, unknown>[] }> {
  const sink = memorySink();
  const config = options.config ?? toolOnlyConfig();
  const handler = createA2aHandler(config, {
    tools: calcTools,
    receipts: { signingKey: keys.privateJwk, sink },
    ...(options.secrets ? { secrets: options.secrets } : {}),
  });
  const served = await serveHandler(async (request) => {
    const pending: Promise<unknown>[] = [];
    const response = await handler(request, { waitUntil: (p) => pending.push(p) });
    await Promise.all(pending);
    const path = new URL(request.url).pathname;
    if (options.withoutStreaming && path === AGENT_CARD_PATH) {
      const card = await response.json();
      card.capabilities.streaming = false;
      return Response.json(card);
    }
    if (options.publishKey && path === AGENT_CARD_PATH) {
      const card = await response.json();
      const signed = await signAgentCard(card, keys.privateJwk);
      signed.signatures[0]!.header = { jwk: { kty: 'OKP', crv: 'Ed25519', x: keys.publicJwk.x } };
      return new Response(JSON.stringify(signed), { status: 200, headers: { 'content-type': 'application/json' } });
    }
    if (options.changeReceipt && request.method === 'POST') {
      const body = await response.json();
      const receipt = body.result?.task?.metadata?.receipt;
      if (receipt) body.result.task.metadata.receipt = options.changeReceipt(receipt);
      return new Response(JSON.stringify(body), {
        status: response.status,
        headers: { 'content-type': 'application/json' },
      });
    }
    return response;
  });
  closers.push(served);
  return { served, receipts: sink.receipts as unknown as Record<string, unknown>[] };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('agentdef ask: usage', () => {
  it('exits 2 with the usage on bad arguments', async () => {
    for (const argv of [
      [],
      ['http://127.0.0.1:1'],
      ['a', 'b', 'c'],
      ['not a url', 'hi'],
      ['ftp://127.0.0.1/', 'hi'],
      ['http://127.0.0.1:1', '  '],
      ['http://127.0.0.1:1', 'hi', '--task', ''],
      ['http://127.0.0.1:1', 'hi', '--nope'],
      ['http://127.0.0.1:1', 'hi', '--card-timeout', '0'],
      ['http://127.0.0.1:1', 'hi', '--card-timeout', '-1'],
      ['http://127.0.0.1:1', 'hi', '--card-timeout', 'soon'],
      ['http://127.0.0.1:1', 'hi', '--idle-timeout', '86401'],
      ['http://127.0.0.1:1', 'hi', '--idle-timeout', '1e3'],
    ]) {
      const result = await ask(argv);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        /^error: .*\nusage: agentdef ask <url> <text> \[--task id\] \[--stream\] \[--key public-jwk-file\] \[--card-timeout seconds\] \[--idle-timeout seconds\] \[--follow\]\n$/,
      );
      expect(result.stdout).toBe('');
    }
  });

  it('refuses a private key as --key without printing it', async () => {
    const result = await ask(['http://127.0.0.1:1', 'hi', '--key', 'private.jwk.json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('private.jwk.json holds a private key (member d)');
    expect(result.stderr).not.toContain(keys.privateJwk.d!);
  });

  it('exits 2 when nothing answers at the URL', async () => {
    const port = await closedPort();
    const result = await ask([`http://127.0.0.1:${port}`, 'hi']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`error: cannot read the agent card from http://127.0.0.1:${port}/: fetch failed\n`);
  });
});

describe('agentdef ask: a real host on loopback', () => {
  it('sends the message, prints the answer, the task id and its state; no receipt when the host returns none', async () => {
    const config = toolOnlyConfig();
    config.receipts = { ...config.receipts, mode: 'off' };
    const { served } = await host({ config });
    const result = await ask([served.url, '{"a": 19, "b": 23}']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\{"sum":42\}\ntask: \S+\nstate: completed\nno receipt\n$/);
  });

  it('says when the receipt cannot be checked for want of its key, and still exits 0', async () => {
    const { served, receipts } = await host();
    const result = await ask([served.url, '{"a": 19, "b": 23}']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const taskId = String(receipts[0]!['runId']);
    expect(result.stdout).toBe(
      `{"sum":42}\ntask: ${taskId}\nstate: completed\nreceipt: not checked (no public key for kid keyref:calc-agent at hand: pass --key <public JWK file>)\n`,
    );
  });

  it('takes the card URL as well as the base URL', async () => {
    const { served } = await host();
    const result = await ask([`${served.url}${AGENT_CARD_PATH}`, '{"a": 1, "b": 2}']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\{"sum":3\}\ntask: \S+\nstate: completed\nreceipt: not checked /);
  });

  it("--stream streams: the answer as it arrives, the task, its state, and the receipt from the stream's last status, verified", async () => {
    const { served } = await host();
    const result = await ask([served.url, '{"a": 2, "b": 2}', '--stream', '--key', 'public.jwk.json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // The answer's text part and its data part are two chunks of one artifact, printed as they come.
    expect(result.stdout).toMatch(
      /^\{"sum":4\}\ntask: \S+\nstate: completed\nreceipt: verified \(kid keyref:calc-agent\)\n$/,
    );
  });

  it('--stream says when the card does not declare streaming and falls back to SendMessage', async () => {
    const { served } = await host({ withoutStreaming: true });
    const result = await ask([served.url, '{"a": 2, "b": 2}', '--stream']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      'note: Adder does not declare streaming in its card; sending without it (SendMessage)\n',
    );
    expect(result.stdout).toMatch(/^\{"sum":4\}\ntask: \S+\nstate: completed\n/);
  });

  it('--task continues a task: a finished task refuses the follow-up, exit 1 with the agent error', async () => {
    const { served, receipts } = await host();
    expect((await ask([served.url, '{"a": 1, "b": 1}'])).code).toBe(0);
    const result = await ask([served.url, '{"a": 1, "b": 1}', '--task', String(receipts[0]!['runId'])]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: Adder answered with an error: .*terminal state/);
    const unknown = await ask([served.url, 'hi', '--task', 'no-such-task']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: Adder answered with an error: .*[Tt]ask not found/);
  });

  it('exits 1 on a failed task, printing why it stopped', async () => {
    const config = toolOnlyConfig();
    const handlerTools = { 'calc.add': () => Promise.reject(new Error('adder broke')) };
    const failing = createA2aHandler(config, {
      tools: handlerTools,
      receipts: { signingKey: keys.privateJwk, sink: memorySink() },
    });
    const served = await serveHandler((request, perRequest) => failing(request, perRequest));
    closers.push(served);
    const result = await ask([served.url, '{"a": 1, "b": 2}']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^The run failed: .*\ntask: \S+\nstate: failed\nreceipt: not checked /);
  });
});

describe('agentdef ask: a hybrid leaf', () => {
  it('prints the model calls the signed receipt lists: the route, each answer and each verdict', async () => {
    const desk = await startSupportDesk();
    closers.push(...desk.stubs);
    const { served } = await host({ config: desk.config, secrets: SUPPORT_SECRETS });
    const { code, stdout } = await ask([
      served.url,
      'I was charged twice for my March invoice.',
      '--key',
      join(root, 'public.jwk.json'),
    ]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^receipt: verified /m);
    expect(stdout).toMatch(
      /^model calls: route→triage \(billing\), answer→billing, evaluate→reviewer \(fail\), answer→billing, evaluate→reviewer \(pass\)$/m,
    );
    expect(stdout).toMatch(/\nNext step: /);
  });

  it('prints no model-calls line for a run without named pins', async () => {
    const { served } = await host();
    const { stdout } = await ask([served.url, '{"a":1,"b":2}']);
    expect(stdout).not.toContain('model calls:');
  });
});

describe('agentdef ask: receipts', () => {
  it('verifies the receipt with --key: exit 0', async () => {
    const { served } = await host();
    const result = await ask([served.url, '{"a": 3, "b": 4}', '--key', 'public.jwk.json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^\{"sum":7\}\ntask: \S+\nstate: completed\nreceipt: verified \(kid keyref:calc-agent\)\n$/,
    );
  });

  it('a receipt that does not verify with the key given exits 1 saying why', async () => {
    const { served } = await host();
    const wrongKey = await ask([served.url, '{"a": 3, "b": 4}', '--key', 'other.jwk.json']);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toBe(
      'receipt: NOT verified (the signature does not match the receipt for the --key key (changed, or signed by another key))\n',
    );
  });

  it("verifies a keyref: kid with that key's public half from this machine's key store, and refuses a receipt the stored key did not sign", async () => {
    mkdirSync(keysFolder, { recursive: true, mode: 0o700 });
    const stored = join(keysFolder, 'calc-agent.public.jwk.json');
    writeFileSync(stored, JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: keys.publicJwk.x }), { mode: 0o600 });
    try {
      const { served } = await host();
      const result = await ask([served.url, '{"a": 3, "b": 4}']);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(
        /\nreceipt: verified \(kid keyref:calc-agent, key keyref:calc-agent from this machine's key store\)\n$/,
      );
      writeFileSync(stored, JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: otherKeys.publicJwk.x }), { mode: 0o600 });
      const other = await ask([served.url, '{"a": 3, "b": 4}']);
      expect(other.code).toBe(1);
      expect(other.stderr).toBe(
        "receipt: NOT verified (the signature does not match the receipt for this machine's key store's key (changed, or signed by another key))\n",
      );
    } finally {
      rmSync(stored);
    }
  });

  it('verifies a receipt whose kid is a key thumbprint (what a keyref signer puts there) with the key store public key of that thumbprint, naming its ref', async () => {
    mkdirSync(keysFolder, { recursive: true, mode: 0o700 });
    const stored = join(keysFolder, 'acme-receipts.public.jwk.json');
    writeFileSync(stored, JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: keys.publicJwk.x }));
    const kid = await jwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: keys.publicJwk.x! });
    try {
      const config = toolOnlyConfig();
      config.receipts = { ...config.receipts, signerRef: kid };
      const { served } = await host({ config });
      const result = await ask([served.url, '{"a": 3, "b": 4}']);
      expect(result.stderr).toBe('');
      expect(result.stdout).toMatch(
        new RegExp(`\nreceipt: verified \\(kid ${kid}, key keyref:acme-receipts from this machine's key store\\)\n$`),
      );
      expect(result.code).toBe(0);
    } finally {
      rmSync(stored);
    }
    // Without that public file nothing at hand verifies it: not checked, and the private key is never looked for.
    const config = toolOnlyConfig();
    config.receipts = { ...config.receipts, signerRef: kid };
    const { served } = await host({ config });
    const unchecked = await ask([served.url, '{"a": 3, "b": 4}']);
    expect(unchecked.stdout).toContain(`receipt: not checked (no public key for kid ${kid} at hand`);
  });

  it('a changed receipt does not verify', async () => {
    const { served } = await host({ changeReceipt: (r) => ({ ...r, steps: 99 }) });
    const result = await ask([served.url, '{"a": 3, "b": 4}', '--key', 'public.jwk.json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('receipt: NOT verified (the signature does not match');
  });

  it('a receipt for another run does not count for this task', async () => {
    const { served } = await host({ changeReceipt: (r) => ({ ...r, runId: 'another-run' }) });
    const result = await ask([served.url, '{"a": 3, "b": 4}', '--key', 'public.jwk.json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^receipt: NOT verified \(it is for run another-run, not task \S+\)\n$/);
  });

  it("uses the key the card publishes when its thumbprint is the receipt's kid", async () => {
    const kid = await jwkThumbprint(keys.publicJwk);
    const config = toolOnlyConfig();
    config.receipts = { ...config.receipts, signerRef: kid };
    const { served } = await host({ config, publishKey: true });
    const result = await ask([served.url, '{"a": 5, "b": 6}']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`receipt: verified (kid ${kid}, key published in the card)\n`);
  });
});

describe('agentdef ask: models replayed from a recording', () => {
  /** A host of an agent whose receipts are off, its answers carrying what a replayed run adds to the task: `modelsReplayed`. */
  async function replayedHost() {
    const sink = memorySink();
    const handler = createA2aHandler(toolOnlyConfig(), {
      tools: calcTools,
      receipts: { signingKey: keys.privateJwk, sink },
    });
    const served = await serveHandler(async (request) => {
      const response = await handler(request);
      if (request.method !== 'POST') return response;
      const body = await response.json();
      const task = body.result?.task;
      if (task) {
        task.metadata.modelsReplayed = true;
        delete task.metadata.receipt;
      }
      return Response.json(body);
    });
    closers.push(served);
    return served;
  }

  it('says the models were replayed when only the task metadata says so (the receipt case: e2e/cross-host/model-replay.test.ts); a live answer says nothing of the kind', async () => {
    const fromTask = await ask([(await replayedHost()).url, '{"a": 2, "b": 3}']);
    expect(fromTask.code).toBe(0);
    expect(fromTask.stdout).toMatch(
      /^no receipt\nmodels: replayed from a recording, not a live model \(the task metadata says so\)\n$/m,
    );
    const live = await ask([(await host()).served.url, '{"a": 2, "b": 3}']);
    expect(live.code).toBe(0);
    expect(live.stdout).not.toContain('models:');
  });
});

/** A plain `node:http` server on 127.0.0.1 that answers as `respond` says (hostile agents). */
async function rawServer(respond: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createHttpServer(respond);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A real host's card, as JSON. */
async function cardOf(url: string): Promise<Record<string, unknown>> {
  return (await (await fetch(`${url}${AGENT_CARD_PATH}`)).json()) as Record<string, unknown>;
}

describe('agentdef ask: bounded', () => {
  it('gives up on a card that never ends (a trickle, and silence) after --card-timeout', async () => {
    const trickle = await rawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"name":');
      const timer = setInterval(() => res.write(' '), 20);
      res.on('close', () => clearInterval(timer));
    });
    const silent = await rawServer(() => {});
    for (const url of [trickle, silent]) {
      const result = await ask([url, 'hi', '--card-timeout', '0.5']);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `error: cannot read the agent card from ${url}/: the agent card did not arrive within 0.5 s (--card-timeout)\n`,
      );
    }
  });

  it('stops reading a card at 1 MiB: the server sends a bounded part of 200 MB', async () => {
    const sentBy: Record<string, number> = {};
    const huge = (declare: boolean) =>
      rawServer((req, res) => {
        const key = `${declare}`;
        sentBy[key] = 0;
        res.writeHead(200, {
          'content-type': 'application/json',
          ...(declare ? { 'content-length': String(200 * 1024 * 1024) } : {}),
        });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const pump = () => {
          while (sentBy[key]! < 200 * 1024 * 1024 && !res.destroyed) {
            sentBy[key]! += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        req.socket.on('close', () => res.destroy());
        pump();
      });
    for (const declare of [false, true]) {
      const url = await huge(declare);
      const result = await ask([url, 'hi']);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `error: cannot read the agent card from ${url}/: the agent card is larger than 1 MiB; reading stopped there\n`,
      );
      // What the server could write before the client closed: the 1 MiB read and what the sockets buffer.
      expect(sentBy[`${declare}`]).toBeLessThan(32 * 1024 * 1024);
    }
    expect(MAX_CARD_BYTES).toBe(1024 * 1024);
  });

  it('gives up on an event stream that stops sending after --idle-timeout', async () => {
    const { served } = await host();
    const card = await cardOf(served.url);
    let posts = 0;
    const stalls = await rawServer((req, res) => {
      if (req.method === 'GET') {
        // The host's card, with its RPC URL moved to this server (the same origin as the card).
        const moved = JSON.parse(JSON.stringify(card).replaceAll(served.url, `http://${req.headers.host}`));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(moved));
        return;
      }
      posts++;
      req.resume();
      // Headers and one comment line, then nothing, the connection held open.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': working\n\n');
    });
    const result = await ask([stalls, '{"a": 1, "b": 2}', '--stream', '--idle-timeout', '0.5']);
    expect(posts).toBe(1);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: Adder: the event stream sent nothing for 0.5 s (--idle-timeout)\n');
  });

  it('refuses a card whose RPC URL is at another origin, naming both, unless --follow; and a redirect to another origin', async () => {
    const { served, receipts } = await host();
    const card = await cardOf(served.url);
    const cardHost = await rawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(card));
    });
    const refused = await ask([cardHost, '{"a": 1, "b": 2}']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `error: Adder: the agent's RPC URL is at another origin, ${served.url}, than the agent card's, ${cardHost}: not followed (pass --follow to go there)\n`,
    );
    expect(refused.stdout).toBe('');
    expect(receipts).toHaveLength(0); // nothing reached the other origin

    const followed = await ask([cardHost, '{"a": 1, "b": 2}', '--follow']);
    expect(followed.stderr).toBe('');
    expect(followed.code).toBe(0);
    expect(followed.stdout).toMatch(/^\{"sum":3\}\ntask: \S+\nstate: completed\n/);
    expect(receipts).toHaveLength(1);

    const redirects = await rawServer((_req, res) => {
      res.writeHead(302, { location: `${served.url}${AGENT_CARD_PATH}` });
      res.end();
    });
    const redirected = await ask([redirects, 'hi']);
    expect(redirected.code).toBe(2);
    expect(redirected.stderr).toBe(
      `error: cannot read the agent card from ${redirects}/: the agent card redirects to a URL that is at another origin, ${served.url}, than the agent card's, ${redirects}: not followed (pass --follow to go there)\n`,
    );
    expect((await ask([redirects, '{"a": 1, "b": 2}', '--follow'])).code).toBe(0);
  });
});
