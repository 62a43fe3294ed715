/**
 * Offline models on every target, as users run them: `agentdef dev <output> --record <folder>`
 * (a real process) against a scripted Anthropic stub on loopback (the stand-in for the real API,
 * checking the key like it), `agentdef ask` (a real process), then the stub gone and no API key
 * anywhere: `agentdef dev <output> --replay <folder>` on the Worker (workerd via miniflare), the
 * HB3 job and the local launcher gives the same answers and receipt model ids, says the models
 * were replayed (banner, `ask`, the signed receipt), and an unrecorded request fails clearly.
 * The three targets record the very same exchange files: request bodies do not depend on the host.
 * `agentdef run --serve` with `AGENTDEF_REPLAY` does the same for a process host.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { runAgentdef, serveAgentdef } from './support/agentdef-process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedProvider, type StubServer } from '../../plugin/runtime/__test-support__/stub-provider';
import { REPO, a2aAsk, compileExample, isolatedEnv, receiptKeys, scratch } from '../local/support/host-harness';

const STUB_KEY = 'sk-ant-stub-replay-0123456789abcdefXYZ';
const QUESTION = JSON.stringify({
  path: 'config.ts',
  source: 'parseConfig(raw);\n',
  instruction: 'add a null check before the call to parseConfig',
});
const OTHER_QUESTION = JSON.stringify({
  path: 'config.ts',
  source: 'parseConfig(raw);\n',
  instruction: 'rename parseConfig to loadConfig',
});
const DIFF = [
  '--- a/config.ts',
  '+++ b/config.ts',
  '@@ -1,1 +1,2 @@',
  '+if (raw === undefined) throw new Error("no config");',
  ' parseConfig(raw);',
  '',
].join('\n');
const TARGETS = { worker: 'cloudflare-dynamic-worker', hb3: 'hb3', local: 'local-mac' } as const;
type Target = keyof typeof TARGETS;

const ws = scratch('model-replay');
const started: ChildProcess[] = [];
let keys: Awaited<ReturnType<typeof receiptKeys>>;
let stub: StubServer;

beforeAll(async () => {
  writeFileSync(ws.path('nx.json'), '{}\n');
  keys = await receiptKeys();
  writeFileSync(ws.path('receipt.public.jwk'), JSON.stringify(keys.publicJwk));
  for (const [name, target] of Object.entries(TARGETS))
    await compileExample('fallback-writer', target, ws.path('dist', name));
  stub = await startScriptedProvider({ wire: 'anthropic-messages', apiKey: STUB_KEY, script: () => ({ text: DIFF }) });
});
afterAll(async () => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await stub?.close();
  ws.cleanup();
});

/** The environment of a session: nothing of this machine's, the receipt key, and `extra`. */
function env(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return isolatedEnv(ws.path('home'), {
    AGENTDEF_STATE_DIR: ws.path('state'),
    AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: keys.secret,
    ...extra,
  });
}
const LIVE = () => env({ AGENTDEF_BASE_URL_ANTHROPIC: stub.url, AGENTDEF_SECRET_ANTHROPIC_API_KEY: STUB_KEY });
const NO_KEY = () => env({});

const place = { cwd: ws.dir, started };
/** `agentdef <args>` left serving (support/agentdef-process.ts). */
const serve = (args: string[], environment: NodeJS.ProcessEnv, ready?: RegExp) =>
  serveAgentdef(place, args, environment, ready);
/** `agentdef <args>` to its end (asynchronously: the stub answers from this process). */
const cli = (args: string[], environment: NodeJS.ProcessEnv) => runAgentdef(place, args, environment);

function recording(folder: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(ws.path(folder))
      .sort()
      .map((name) => [name, readFileSync(ws.path(folder, name), 'utf8')]),
  );
}

const live: Partial<Record<Target, { answer: string | undefined; models: unknown }>> = {};

describe('agentdef dev --record, then --replay with the provider gone and no key', () => {
  it('records one session per target; the three recordings hold the same requests (digests) and no key', async () => {
    for (const target of Object.keys(TARGETS) as Target[]) {
      const dev = await serve(['dev', `dist/${target}`, '--record', `recordings/${target}`], LIVE());
      expect(dev.output().stdout).toContain(
        `  models:     recorded into recordings/${target} (the live providers answer`,
      );
      const asked = await cli(['ask', dev.url, QUESTION, '--key', 'receipt.public.jwk'], LIVE());
      expect(asked.status, asked.stderr).toBe(0);
      expect(asked.stdout).toMatch(/^receipt: verified /m);
      expect(asked.stdout).not.toContain('models: replayed');
      // As `agentdef ask` sends it: the card takes JSON, so the text goes as a JSON data part.
      const { task, answer } = await a2aAsk(dev.url, JSON.parse(QUESTION));
      live[target] = { answer, models: (task.metadata?.['receipt'] as { models?: unknown })?.models };
      expect(await dev.stop()).toBe(0);
      expect(dev.output().stdout).toMatch(
        new RegExp(
          `^recorded anthropic-messages POST /v1/messages into recordings/${target}/[0-9a-f]{64}\\.json$`,
          'm',
        ),
      );
    }
    const worker = recording('recordings/worker');
    expect(Object.keys(worker)).toHaveLength(1);
    // The same request from every host: the same digest, the same recorded request (the stub numbers its answers' ids).
    const requests = (folder: string) =>
      Object.entries(recording(folder)).map(([name, text]) => [name, JSON.parse(text).request]);
    expect(requests('recordings/hb3')).toEqual(requests('recordings/worker'));
    expect(requests('recordings/local')).toEqual(requests('recordings/worker'));
    const text = Object.values(worker).join('');
    expect(text).not.toContain(STUB_KEY);
    expect(text).not.toContain(stub.url);
    expect(text).not.toContain(ws.dir);
    expect(live.worker?.answer).toBe(live.hb3?.answer);
  });

  for (const target of Object.keys(TARGETS) as Target[]) {
    it(`${target}: replays the recording with no key and no provider: same answer and model ids, replayed said everywhere; an unrecorded request fails clearly`, async () => {
      const served = stub.requests.length;
      const dev = await serve(['dev', `dist/${target}`, '--replay', 'recordings/hb3'], NO_KEY());
      expect(dev.output().stdout).toContain(
        '  models:     replayed from recordings/hb3 (1 recorded exchange; no API key used)',
      );
      const asked = await cli(['ask', dev.url, QUESTION, '--key', 'receipt.public.jwk'], NO_KEY());
      expect(asked.status, asked.stderr).toBe(0);
      expect(asked.stdout).toMatch(/^state: completed$/m);
      expect(asked.stdout).toMatch(/^receipt: verified /m);
      expect(asked.stdout).toContain('models: replayed from a recording, not a live model (the receipt says so)');
      const { task, answer } = await a2aAsk(dev.url, JSON.parse(QUESTION));
      expect(answer).toBe(live[target]?.answer);
      const receipt = task.metadata?.['receipt'] as { models?: unknown; modelsReplayed?: boolean };
      expect(receipt.models).toEqual(live[target]?.models);
      expect(receipt.modelsReplayed).toBe(true);
      expect(task.metadata?.['modelsReplayed']).toBe(true);

      const missed = await cli(['ask', dev.url, OTHER_QUESTION], NO_KEY());
      expect(missed.status).toBe(1);
      expect(missed.stdout).toMatch(/^state: failed$/m);
      expect(missed.stdout).toContain('model_request_not_recorded');
      expect(await dev.stop()).toBe(0);
      const { stderr } = dev.output();
      expect(stderr).toMatch(
        new RegExp(
          `error: model request not recorded: anthropic-messages POST /v1/messages \\(sha-256:[0-9a-f]{64}\\) is not in recordings/hb3; .*agentdef dev dist/${target} --record recordings/hb3`,
        ),
      );
      expect(stderr).not.toMatch(/agentdef-replay-no-key/);
      expect(stub.requests.length).toBe(served); // nothing reached the provider
      expect(Object.keys(recording('recordings/hb3'))).toHaveLength(1); // replay writes nothing
    });
  }

  it('agentdef run --serve with AGENTDEF_REPLAY replays a process host the same way', async () => {
    const served = stub.requests.length;
    const run = await serve(
      ['run', 'dist/hb3', '--serve', '--port', '0'],
      { ...NO_KEY(), AGENTDEF_REPLAY: 'recordings/hb3' },
      /^ {2}models: {5}replayed/m,
    );
    expect(run.output().stdout).toContain(
      '  models:     replayed from recordings/hb3 (1 recorded exchange; no API key used)',
    );
    const { answer, task } = await a2aAsk(run.url, JSON.parse(QUESTION));
    expect(answer).toBe(live.hb3?.answer);
    expect(task.metadata?.['modelsReplayed']).toBe(true);
    await run.stop();
    expect(stub.requests.length).toBe(served);
  });

  it('a tampered recording, a folder outside the workspace, or both modes at once: refused before anything serves', async () => {
    mkdirSync(ws.path('recordings', 'tampered'), { recursive: true });
    const [name, text] = Object.entries(recording('recordings/hb3'))[0]!;
    writeFileSync(
      ws.path('recordings', 'tampered', name),
      text.replace('"status": 200', '"status": 200, "status": 500'),
    );
    const tampered = await cli(['dev', 'dist/hb3', '--replay', 'recordings/tampered'], NO_KEY());
    expect(tampered.status).toBe(1);
    expect(tampered.stderr).toContain(`error: recordings/tampered/${name}: not strict JSON`);
    expect(tampered.stdout).not.toContain('serves A2A');
    const outside = await cli(['dev', 'dist/hb3', '--replay', REPO], NO_KEY());
    expect(outside.status).toBe(2);
    expect(outside.stderr).toMatch(/--replay .* is outside the workspace/);
    const bothFlags = await cli(
      ['dev', 'dist/hb3', '--replay', 'recordings/hb3', '--record', 'recordings/x'],
      NO_KEY(),
    );
    expect(bothFlags.status).toBe(2);
    expect(bothFlags.stderr).toContain('--record and --replay exclude each other');
    const bothVariables = await cli(['run', 'dist/hb3'], {
      ...NO_KEY(),
      AGENTDEF_RECORD: 'recordings/x',
      AGENTDEF_REPLAY: 'recordings/hb3',
    });
    expect(bothVariables.status).toBe(2);
    expect(bothVariables.stderr).toContain('AGENTDEF_RECORD and AGENTDEF_REPLAY are both set');
    expect(readdirSync(ws.path('recordings')).sort()).toEqual(['hb3', 'local', 'tampered', 'worker']);
  });
});
