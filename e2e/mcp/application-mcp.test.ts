/**
 * `agentdef mcp` end to end: the official MCP SDK client (`Client` + `StdioClientTransport`)
 * spawns the real server (`node bin/agentdef.cjs mcp --workspace <tmp>`) over a temporary
 * workspace holding a JSON and a YAML application and an approved-artifacts folder for the
 * reference gateway. Covered: the tool list and its strict schemas, catalog, plan, dry-run and live
 * execute, drift, idempotent replay and conflict, hostile arguments (each refused, nothing run),
 * structured content valid against the listed output schemas, a durable ledger that replays after
 * a restart, and a clean shutdown. Everything stays inside os.tmpdir(); nothing touches the network.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asText, sealed } from '../../plugin/application/__test-support__/application-manifests';
import {
  ARTIFACT_DIGEST,
  ARTIFACTS_FOLDER,
  GREETER_PATH,
  greeterManifest,
  PUBLISHER_PATH,
  writeMcpWorkspace,
} from '../../plugin/application/__test-support__/mcp-workspace';
import { openPlaces } from '../../plugin/application/__test-support__/schema-walk';
import { builtinCatalog } from '../../plugin/application/catalog';
import { APPLICATION_TOOLS } from '../../plugin/application/mcp-tool-contracts';
import { agentdefBin } from '../support/run-cli';

interface ToolResult {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}

interface Server {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  clientErrors: Error[];
}

let dir: string;
let root: string;

/** A child environment with no access to the real home or cache. */
function childEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: join(dir, 'home'), XDG_CACHE_HOME: join(dir, 'cache'), NO_COLOR: '1' };
}

async function startServer(extraArgs: string[] = []): Promise<Server> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [agentdefBin, 'mcp', '--workspace', root, ...extraArgs],
    cwd: root,
    env: childEnv(),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'agentdef-e2e', version: '1.0.0' });
  const clientErrors: Error[] = [];
  client.onerror = (error) => clientErrors.push(error);
  await client.connect(transport);
  return { client, transport, stderr: () => stderr, clientErrors };
}

const outboxCount = (): number => {
  const outbox = join(root, ARTIFACTS_FOLDER, 'outbox');
  return existsSync(outbox) ? readdirSync(outbox).length : 0;
};

let server: Server;
let listed: Tool[];
const outputValidators = new Map<string, ValidateFunction>();
let validatedResults = 0;

/** Calls `name` through the SDK client and checks the structured content against the listed output schema. */
async function call(name: string, args: unknown, on: Server = server): Promise<ToolResult> {
  const result = (await on.client.request(
    { method: 'tools/call', params: { name, arguments: args as Record<string, unknown> } },
    CallToolResultSchema,
  )) as ToolResult;
  expect(result.content).toEqual([{ type: 'text', text: expect.any(String) }]);
  if (result.structuredContent !== undefined) {
    let validate = outputValidators.get(name);
    if (validate === undefined) {
      const tool = listed.find((t) => t.name === name);
      validate = new Ajv2020({ strict: true, allErrors: true }).compile(tool?.outputSchema as object);
      outputValidators.set(name, validate);
    }
    expect(validate(result.structuredContent), JSON.stringify(validate.errors)).toBe(true);
    validatedResults++;
  }
  return result;
}

const structured = <T = Record<string, unknown>>(result: ToolResult): T => result.structuredContent as T;

async function planDigest(manifestPath: string, mode: 'dry-run' | 'live'): Promise<string> {
  const result = await call('agentdef.application.plan', { manifestPath, mode });
  expect(result.isError).toBe(false);
  return structured<{ plan: { digest: string } }>(result).plan.digest;
}

const who = (name: string) => [{ node: 'who', port: 'value', json: JSON.stringify({ name }) }];
const publishRequest = (channel: string) => [{ node: 'request', port: 'value', json: JSON.stringify({ channel }) }];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentdef-mcp-e2e-'));
  mkdirSync(join(dir, 'home'));
  root = join(dir, 'workspace');
  mkdirSync(root);
  writeMcpWorkspace(root);
  server = await startServer();
  listed = (await server.client.listTools()).tools;
});

afterAll(async () => {
  await server?.client.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('agentdef mcp over stdio', () => {
  it('lists exactly the three tools, each with a closed input schema and an output schema', () => {
    expect(listed.map((t) => t.name)).toEqual([
      'agentdef.application.catalog',
      'agentdef.application.plan',
      'agentdef.application.execute',
    ]);
    for (const tool of listed) {
      expect({ tool: tool.name, open: openPlaces(tool.inputSchema) }).toEqual({ tool: tool.name, open: [] });
      expect(tool.inputSchema.additionalProperties).toBe(false);
      expect(tool.outputSchema?.type).toBe('object');
      const contract = APPLICATION_TOOLS.find((c) => c.name === tool.name);
      expect(tool.inputSchema).toEqual(contract?.inputSchema);
      expect(tool.outputSchema).toEqual(contract?.outputSchema);
    }
    expect(server.client.getServerVersion()?.name).toBe('agentdef');
  });

  it('catalog: the five built-in components and the digests a manifest names', async () => {
    const result = await call('agentdef.application.catalog', {});
    expect(result.isError).toBe(false);
    const catalog = structured<{
      catalogDigest: string;
      adapterPolicyDigest: string;
      components: { id: string }[];
      packs: unknown[];
    }>(result);
    const expected = builtinCatalog();
    expect(catalog.catalogDigest).toBe(expected.catalogDigest);
    expect(catalog.adapterPolicyDigest).toBe(expected.adapterPolicyDigest);
    expect(catalog.components.map((c) => c.id)).toEqual([
      'agentdef.approved-artifact',
      'agentdef.input',
      'agentdef.output',
      'agentdef.prompt-template',
      'agentdef.registered-agent',
    ]);
    expect(catalog.packs).toEqual([]);
    // Without arguments at all, as some clients call a tool that takes none.
    expect(structured(await call('agentdef.application.catalog', undefined))).toEqual(catalog);
  });

  it('plan: a JSON and a YAML manifest by path, in both modes, and a manifest as text; digests and public metadata only', async () => {
    const greeter = await call('agentdef.application.plan', { manifestPath: GREETER_PATH, mode: 'dry-run' });
    expect(greeter.isError).toBe(false);
    const plan = structured<{
      ok: boolean;
      plan: { digest: string; mode: string; steps: { node: string }[] };
      diagnostics: unknown[];
    }>(greeter);
    expect(plan.ok).toBe(true);
    expect(plan.diagnostics).toEqual([]);
    expect(plan.plan.steps.map((s) => s.node)).toEqual(['who', 'greeting', 'result']);
    expect(greeter.content[0]?.text).toBe(`plan ${plan.plan.digest} for greeter@1.0.0 (dry-run): 3 steps`);
    // No node configuration in a plan: not the template body, not the description.
    expect(JSON.stringify(plan)).not.toContain('Hello {{name}}');
    expect(JSON.stringify(plan)).not.toContain('who to greet');

    const live = await planDigest(PUBLISHER_PATH, 'live');
    const dry = await planDigest(PUBLISHER_PATH, 'dry-run');
    expect(live).not.toBe(dry);

    const byText = await call('agentdef.application.plan', {
      manifestText: asText(greeterManifest(), 'yaml'),
      manifestFormat: 'yaml',
      mode: 'dry-run',
    });
    expect(structured<{ plan: { digest: string } }>(byText).plan.digest).toBe(plan.plan.digest);
  });

  it('plan: an invalid manifest gives located diagnostics, as an error result', async () => {
    const broken = asText(greeterManifest(), 'json').replace('"agentdef.output"', '"agentdef.output-v2"');
    const result = await call('agentdef.application.plan', { manifestText: broken, mode: 'dry-run' });
    expect(result.isError).toBe(true);
    const { ok, diagnostics } = structured<{
      ok: boolean;
      diagnostics: { file: string; line: number; column: number; path: string }[];
    }>(result);
    expect(ok).toBe(false);
    expect(diagnostics.length).toBeGreaterThan(0);
    expect(
      diagnostics.every((d) => d.file === 'manifest.json' && d.line > 1 && d.column >= 1 && d.path.startsWith('/')),
    ).toBe(true);
  });

  it('execute in dry-run: the greeter answers, the publisher dispatches nothing', async () => {
    const greeter = await call('agentdef.application.execute', {
      manifestPath: GREETER_PATH,
      mode: 'dry-run',
      expectedPlanDigest: await planDigest(GREETER_PATH, 'dry-run'),
      idempotencyKey: 'dry-greeter-1',
      inputs: who('Ada'),
    });
    expect(greeter.isError).toBe(false);
    expect(structured(greeter)).toMatchObject({
      ok: true,
      replayed: false,
      run: { status: 'succeeded', mode: 'dry-run', outputs: { greeting: 'Hello Ada' }, reconciliationRequired: false },
    });

    const publisher = await call('agentdef.application.execute', {
      manifestPath: PUBLISHER_PATH,
      mode: 'dry-run',
      expectedPlanDigest: await planDigest(PUBLISHER_PATH, 'dry-run'),
      idempotencyKey: 'dry-publisher-1',
      inputs: publishRequest('web'),
    });
    expect(structured(publisher)).toMatchObject({
      ok: true,
      run: {
        status: 'succeeded',
        steps: [
          { node: 'request', dispatched: false },
          { node: 'publish', dispatched: false },
          { node: 'result', dispatched: false },
        ],
        outputs: { artifact: { artifactDigest: ARTIFACT_DIGEST, dispatched: false } },
      },
    });
    expect(outboxCount()).toBe(0);
  });

  it('execute live against the reference gateway: one dispatch, recorded with digests only; the same key replays without a second dispatch', async () => {
    const args = {
      manifestPath: PUBLISHER_PATH,
      mode: 'live',
      expectedPlanDigest: await planDigest(PUBLISHER_PATH, 'live'),
      idempotencyKey: 'live-publisher-1',
      inputs: publishRequest('web'),
    };
    const first = await call('agentdef.application.execute', args);
    expect(first.isError).toBe(false);
    const run = structured<{ run: { steps: { node: string; dispatched: boolean }[] } }>(first).run;
    expect(structured(first)).toMatchObject({
      ok: true,
      replayed: false,
      run: {
        status: 'succeeded',
        mode: 'live',
        outputs: { artifact: { artifactDigest: ARTIFACT_DIGEST, dispatched: true } },
      },
    });
    expect(run.steps.find((s) => s.node === 'publish')?.dispatched).toBe(true);
    expect(outboxCount()).toBe(1);
    const outbox = join(root, ARTIFACTS_FOLDER, 'outbox');
    const record = readFileSync(join(outbox, readdirSync(outbox)[0] as string), 'utf8');
    expect(record).not.toContain('web');
    expect(record).not.toContain('Release notes');

    const again = await call('agentdef.application.execute', args);
    expect(structured(again)).toMatchObject({ ok: true, replayed: true });
    expect(structured<{ run: unknown }>(again).run).toEqual(structured<{ run: unknown }>(first).run);
    expect(again.content[0]?.text).toMatch(/^replayed the recorded run/);
    expect(outboxCount()).toBe(1);
  });

  it('idempotency: the same key with other inputs, or another mode, is refused and runs nothing', async () => {
    const digest = await planDigest(GREETER_PATH, 'dry-run');
    const args = {
      manifestPath: GREETER_PATH,
      mode: 'dry-run',
      expectedPlanDigest: digest,
      idempotencyKey: 'replay-1',
      inputs: who('Ada'),
    };
    const first = await call('agentdef.application.execute', args);
    const second = await call('agentdef.application.execute', args);
    expect(structured(second)).toMatchObject({ ok: true, replayed: true });
    expect(structured<{ run: unknown }>(second).run).toEqual(structured<{ run: unknown }>(first).run);

    const otherInputs = await call('agentdef.application.execute', { ...args, inputs: who('Bob') });
    expect(otherInputs.isError).toBe(true);
    expect(structured(otherInputs)).toMatchObject({ ok: false, refusal: 'idempotency-conflict' });

    const otherMode = await call('agentdef.application.execute', {
      ...args,
      mode: 'live',
      expectedPlanDigest: await planDigest(GREETER_PATH, 'live'),
    });
    expect(structured(otherMode)).toMatchObject({ ok: false, refusal: 'idempotency-conflict' });
  });

  it('drift: a wrong expected digest, and a manifest changed after planning, are refused before anything runs', async () => {
    const wrong = await call('agentdef.application.execute', {
      manifestPath: PUBLISHER_PATH,
      mode: 'live',
      expectedPlanDigest: 'f'.repeat(64),
      idempotencyKey: 'drift-1',
      inputs: publishRequest('web'),
    });
    expect(wrong.isError).toBe(true);
    const refusal = structured<{ ok: boolean; refusal: string; planDigest: string; diagnostics: { path: string }[] }>(
      wrong,
    );
    expect(refusal).toMatchObject({
      ok: false,
      refusal: 'drift',
      planDigest: await planDigest(PUBLISHER_PATH, 'live'),
    });
    expect(refusal.diagnostics.map((d) => d.path)).toContain('/expectedPlanDigest');

    const accepted = await planDigest(GREETER_PATH, 'dry-run');
    const file = join(root, GREETER_PATH);
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, asText(sealed(greeterManifest('Goodbye {{name}}')), 'json'));
    try {
      const changed = await call('agentdef.application.execute', {
        manifestPath: GREETER_PATH,
        mode: 'dry-run',
        expectedPlanDigest: accepted,
        idempotencyKey: 'drift-2',
        inputs: who('Ada'),
      });
      expect(structured(changed)).toMatchObject({ ok: false, refusal: 'drift' });
      expect(structured<{ planDigest: string }>(changed).planDigest).not.toBe(accepted);
    } finally {
      writeFileSync(file, original);
    }
    // Nothing ran under either key: both are still free for a first run.
    const fresh = await call('agentdef.application.execute', {
      manifestPath: GREETER_PATH,
      mode: 'dry-run',
      expectedPlanDigest: accepted,
      idempotencyKey: 'drift-2',
      inputs: who('Ada'),
    });
    expect(structured(fresh)).toMatchObject({ ok: true, replayed: false });
    expect(outboxCount()).toBe(1);
  });

  describe('hostile arguments: each refused, nothing executed', () => {
    const good = () => ({
      manifestPath: PUBLISHER_PATH,
      mode: 'live',
      expectedPlanDigest: 'a'.repeat(64),
      idempotencyKey: 'hostile-key',
      inputs: publishRequest('web'),
    });
    const cases: [string, string, unknown, string][] = [
      ['an extra top-level argument', 'agentdef.application.execute', { ...good(), extra: true }, '/extra'],
      ['an `operator` field', 'agentdef.application.execute', { ...good(), operator: { approve: 'all' } }, '/operator'],
      [
        'a `packs` field',
        'agentdef.application.plan',
        { manifestPath: PUBLISHER_PATH, mode: 'live', packs: [{ id: 'evil', components: [] }] },
        '/packs',
      ],
      [
        'an adapter',
        'agentdef.application.execute',
        { ...good(), adapters: [{ execute: 'require("child_process")' }] },
        '/adapters',
      ],
      [
        'a callback URL',
        'agentdef.application.execute',
        { ...good(), callbackUrl: 'https://example.invalid/hook' },
        '/callbackUrl',
      ],
      ['a command', 'agentdef.application.execute', { ...good(), command: 'rm -rf /' }, '/command'],
      ['a credential', 'agentdef.application.execute', { ...good(), apiKey: 'sk-e2e-not-a-real-key' }, '/apiKey'],
      [
        'a nested extra key',
        'agentdef.application.execute',
        { ...good(), inputs: [{ ...publishRequest('web')[0], approval: 'granted' }] },
        '/inputs/0/approval',
      ],
      [
        'an own `__proto__` key',
        'agentdef.application.execute',
        { ...JSON.parse('{"__proto__": {"operator": true}}'), ...good() },
        '/__proto__',
      ],
      [
        'a nested own `__proto__` key',
        'agentdef.application.execute',
        { ...good(), inputs: [{ ...JSON.parse('{"__proto__": {"x": 1}}'), ...publishRequest('web')[0] }] },
        '/inputs/0/__proto__',
      ],
      [
        'a `constructor` key',
        'agentdef.application.plan',
        { manifestPath: PUBLISHER_PATH, mode: 'live', constructor: { prototype: { admin: true } } },
        '/constructor',
      ],
      ['a catalog argument', 'agentdef.application.catalog', { packs: [] }, '/packs'],
      [
        'a huge manifest text',
        'agentdef.application.plan',
        { manifestText: 'x'.repeat(4 * 1024 * 1024 + 1), mode: 'live' },
        '/manifestText',
      ],
      [
        'a huge entry point value',
        'agentdef.application.execute',
        { ...good(), inputs: [{ node: 'request', port: 'value', json: `"${'x'.repeat(1024 * 1024)}"` }] },
        '/inputs/0/json',
      ],
      ['a numeric mode', 'agentdef.application.execute', { ...good(), mode: 1 }, '/mode'],
      [
        'inputs as an object',
        'agentdef.application.execute',
        { ...good(), inputs: { request: { channel: 'web' } } },
        '/inputs',
      ],
      [
        'a value that is not text',
        'agentdef.application.execute',
        { ...good(), inputs: [{ node: 'request', port: 'value', json: { channel: 'web' } }] },
        '/inputs/0/json',
      ],
      [
        'a value with duplicate keys',
        'agentdef.application.execute',
        { ...good(), inputs: [{ node: 'request', port: 'value', json: '{"channel":"web","channel":"all"}' }] },
        '/inputs/0/json',
      ],
      [
        'an absolute manifest path',
        'agentdef.application.execute',
        { ...good(), manifestPath: join(tmpdir(), 'workspace', PUBLISHER_PATH) },
        '/manifestPath',
      ],
      [
        'a `..` manifest path',
        'agentdef.application.execute',
        { ...good(), manifestPath: `../workspace/${PUBLISHER_PATH}` },
        '/manifestPath',
      ],
      [
        'a URL as the manifest path',
        'agentdef.application.plan',
        { manifestPath: 'https://example.invalid/application.json', mode: 'live' },
        '/manifestPath',
      ],
      [
        'an idempotency key with a space',
        'agentdef.application.execute',
        { ...good(), idempotencyKey: 'hostile key' },
        '/idempotencyKey',
      ],
    ];

    it.each(cases)('%s', async (_what, tool, args, path) => {
      const before = outboxCount();
      const result = await call(tool, args);
      expect(result.isError).toBe(true);
      const refusal = structured<{
        ok: boolean;
        refusal: string;
        diagnostics: { path: string; file: string; rule: string }[];
      }>(result);
      expect(refusal.ok).toBe(false);
      expect(refusal.refusal).toBe('invalid-arguments');
      expect(refusal.diagnostics).toContainEqual(expect.objectContaining({ path, file: tool, rule: 'mcp-arguments' }));
      expect(JSON.stringify(result)).not.toContain('sk-e2e-not-a-real-key');
      expect(outboxCount()).toBe(before);
    });

    it('arguments that are not an object, and an unknown tool, are protocol errors', async () => {
      await expect(call('agentdef.application.plan', ['dry-run'])).rejects.toThrow(/expected record|Invalid/i);
      await expect(call('agentdef.application.plan', 'dry-run')).rejects.toThrow(/expected record|Invalid/i);
      await expect(call('agentdef.application.packs', {})).rejects.toThrow(/unknown tool/);
      await expect(call('constructor', {})).rejects.toThrow(/unknown tool/);
    });

    it('none of them claimed the idempotency key or dispatched: the key still runs for the first time', async () => {
      const result = await call('agentdef.application.execute', {
        ...good(),
        expectedPlanDigest: await planDigest(PUBLISHER_PATH, 'live'),
        inputs: publishRequest('print'),
      });
      expect(structured(result)).toMatchObject({ ok: true, replayed: false, run: { status: 'succeeded' } });
      expect(outboxCount()).toBe(2);
    });
  });

  it('validated every structured result against the listed output schema, and wrote nothing but protocol to stdout', () => {
    expect(validatedResults).toBeGreaterThan(30);
    expect(server.clientErrors).toEqual([]);
    expect(server.stderr()).toContain(
      'agentdef mcp: serving the application tools over stdio (execution ledger: in memory)',
    );
    expect(server.stderr()).not.toContain(root);
  });
});

describe('agentdef mcp --ledger', () => {
  it('replays a recorded run after the server restarts, without a second dispatch', async () => {
    const ledger = join(dir, 'ledger.sqlite');
    const first = await startServer(['--ledger', ledger]);
    const args = {
      manifestPath: PUBLISHER_PATH,
      mode: 'live',
      expectedPlanDigest: await planDigest(PUBLISHER_PATH, 'live'),
      idempotencyKey: 'durable-1',
      inputs: publishRequest('archive'),
    };
    const before = outboxCount();
    const ran = await call('agentdef.application.execute', args, first);
    expect(structured(ran)).toMatchObject({ ok: true, replayed: false, run: { status: 'succeeded' } });
    expect(outboxCount()).toBe(before + 1);
    expect(first.stderr()).toContain('execution ledger: SQLite');
    await first.client.close();

    const second = await startServer(['--ledger', ledger]);
    try {
      const replayed = await call('agentdef.application.execute', args, second);
      expect(structured(replayed)).toMatchObject({ ok: true, replayed: true });
      expect(structured<{ run: unknown }>(replayed).run).toEqual(structured<{ run: unknown }>(ran).run);
      expect(outboxCount()).toBe(before + 1);
    } finally {
      await second.client.close();
    }
  });

  it('closing the client stops the server process', async () => {
    const started = await startServer();
    const pid = started.transport.pid;
    expect(typeof pid).toBe('number');
    await started.client.close();
    const deadline = Date.now() + 10_000;
    const alive = () => {
      try {
        process.kill(pid as number, 0);
        return true;
      } catch {
        return false;
      }
    };
    while (alive() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(alive()).toBe(false);
  });
});
