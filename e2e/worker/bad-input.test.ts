/**
 * Bad and hostile input to the Worker adapter:
 * - a definition the plan sends elsewhere fails closed (`runtime_capability_mismatch`), and the
 *   loader refuses a host plan for another target;
 * - skill ids, names and descriptions with quotes, backticks, `*\/`, `</script>`, `${}`,
 *   backslashes, newlines and U+2028 compile into correct code: the Worker serves them back exactly;
 * - binding names that are not JavaScript identifiers work end to end (a model key, a KV
 *   namespace, an MCP server reached through a service binding);
 * - a secret value in a definition never reaches any output file.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TaskState } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitAgent, planAgent } from '../../plugin/compiler/compile';
import { buildPlan } from '../../plugin/compiler/plan';
import { loadWorkspaceConfig } from '../../plugin/compiler/workspace-config';
import { startMcpServer } from '../../plugin/runtime/__test-support__/mcp-server';
import { startScriptedProvider } from '../../plugin/runtime/__test-support__/stub-provider';
import { generateReceiptKeyPair } from '../../plugin/runtime/receipts';
import { askWithSdk, rawRpc } from './support/a2a-client';
import { compileWorker, exampleWorkspace, filesBelow, type ExampleWorkspace } from './support/example-workspace';
import { startCompiledWorker, type StartedWorker } from './support/start-compiled-worker';

/** Every character a TypeScript or HTML printer must escape that an identifier may hold (control characters it may not: rule control-characters). */
const WEIRD = "q\"uote 'single' `back` */ </script> \\ ${x} line2 end";
/** Prose may also hold line breaks and separators. */
const WEIRD_PROSE = `${WEIRD} \n next \u2028 end`;

let ws: ExampleWorkspace;
let keys: { privateJwk: JsonWebKey; publicJwk: JsonWebKey };
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  ws = exampleWorkspace('bad-input');
  keys = await generateReceiptKeyPair();
});
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  ws.remove();
});

async function started(worker: Promise<StartedWorker>): Promise<StartedWorker> {
  const w = await worker;
  cleanups.push(() => w.dispose());
  return w;
}

describe('a definition the plan sends elsewhere', () => {
  it('fails closed in the emit stage: a tree with a tuned child planned for a Worker, and a Worker-only tree planned for a container', async () => {
    const router = await planAgent({ file: ws.definition('write-router'), workspaceRoot: ws.root });
    expect(router.plan!.target).toBe('hb3');
    const inputs = { workspaceRoot: ws.root, workspace: loadWorkspaceConfig(ws.root).config };
    const forWorker = buildPlan(router.resolved!, router.plan!.runtime, 'cloudflare-dynamic-worker');
    const refused = await emitAgent({ plan: forWorker, resolved: router.resolved! }, inputs);
    expect(refused.files).toBeUndefined();
    expect(refused.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ['runtime_capability_mismatch', '/composition/nodes/0'],
    ]);

    const stats = await planAgent({ file: ws.definition('text-stats'), workspaceRoot: ws.root });
    const forHb3 = buildPlan(stats.resolved!, stats.plan!.runtime, 'hb3');
    const elsewhere = await emitAgent({ plan: forHb3, resolved: stats.resolved! }, inputs);
    expect(elsewhere.files).toBeUndefined();
    expect(elsewhere.diagnostics).toEqual([
      expect.objectContaining({
        code: 'runtime_capability_mismatch',
        file: 'examples/text-stats/agent.json',
        path: '/runtimeRequirements/runtimeCapabilityClass',
        severity: 'error',
      }),
    ]);
    expect(elsewhere.diagnostics[0]!.message).toContain('target "hb3"');
  });

  it('makes the loader refuse a host plan for another target, with a JSON error and no stack trace', async () => {
    const compiled = await compileWorker(ws.root, 'text-stats');
    const path = join(compiled.outDir, 'host-plan.json');
    const plan = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    writeFileSync(path, JSON.stringify({ ...plan, target: 'hb3' }));
    const worker = await started(startCompiledWorker(compiled.outDir));
    const response = await fetch(`${worker.url}/.well-known/agent-card.json`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      error: 'host_plan_invalid',
      message: 'the host plan is for target "hb3", not cloudflare-dynamic-worker',
    });
  });
});

describe('strings that would break naive code generation', () => {
  it('round-trip exactly: the compiled Worker serves the skill id, name and description it was given, and routes by that id', async () => {
    ws.edit('keyword-extract', (d) => {
      const skill = d.capabilityContract.skills[0]!;
      skill.id = WEIRD;
      skill.name = `name ${WEIRD}`;
      skill.description = `description ${WEIRD_PROSE}`;
      skill.examples = [WEIRD_PROSE];
      skill.tags = ['t*/`"'];
      d.identity.name = `Keywords ${WEIRD}`;
    });
    const compiled = await compileWorker(ws.root, 'keyword-extract');
    expect(compiled.result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const source = compiled.files.get('src/agents/0-keyword-extract.ts')!;
    // Printed as escaped string literals, never as raw text: no raw line break inside any string, no early comment end.
    expect(source).toContain(JSON.stringify(WEIRD).slice(1, 12));
    expect(source).not.toContain('\u2028');
    expect(source).toContain(' \\n next \\u2028 end"');
    const withWeird = source.split('\n').filter((line) => line.includes('line2'));
    expect(withWeird).toHaveLength(5);
    for (const line of withWeird) expect(line).toMatch(/^\s*(?:[a-z]+: )?\[?"[^\n]*uote[^\n]*line2[^\n]*end",?\]?,?$/);
    const worker = await started(
      startCompiledWorker(compiled.outDir, { secrets: { AGENTDEF_RECEIPT_KEY: JSON.stringify(keys.privateJwk) } }),
    );
    const answer = await askWithSdk(worker.url, 'alpha beta alpha', WEIRD);
    expect(answer.card.name).toBe(`Keywords ${WEIRD}`);
    expect(answer.card.skills[0]).toMatchObject({
      id: WEIRD,
      name: `name ${WEIRD}`,
      description: `description ${WEIRD_PROSE}`,
      examples: [WEIRD_PROSE],
      tags: ['t*/`"'],
    });
    expect(answer.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answer.metadata['skill']).toBe(WEIRD);
    const receipts = await worker.receipts(1);
    expect(receipts[0]!.pinning.skill).toBe(WEIRD);
    const unknown = await rawRpc(
      worker.url,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'SendMessage',
        params: {
          message: { messageId: 'x', role: 'ROLE_USER', parts: [{ text: 'a' }] },
          metadata: { skillId: `${WEIRD}!` },
        },
      }),
    );
    expect(unknown.json.error.code).toBe(-32602);
  });

  it('binding names that are not JavaScript identifiers reach the runtime: a model key, a KV namespace, an MCP service binding', async () => {
    const mcp = await startMcpServer({ json: true });
    cleanups.push(() => mcp.close());
    ws.write(
      'mcp.json',
      JSON.stringify({ servers: { 'calc-mcp': { url: 'https://calc.mcp.invalid/mcp', binding: 'CALC-MCP' } } }),
    );
    ws.edit('web-summarizer', (d) => {
      d.runtimeRequirements.bindings = [
        { kind: 'secret-ref', name: 'OPENAI-KEY-2', ref: 'secrets-store://acme/openai' },
        { kind: 'kv', name: 'SUMMARY-CACHE$1' },
      ];
      d.toolInventory.push({
        id: 'calc-add',
        name: 'add',
        version: '1.0.0',
        provenance: 'mcp',
        mcpServer: 'calc-mcp',
        mcpTransport: 'http',
        risk: 'low',
        description: 'Adds two numbers.',
      });
    });
    const provider = await startScriptedProvider({
      wire: 'openai-chat',
      apiKey: 'odd-binding-key-value',
      script: [
        { toolCalls: [{ name: 'add', arguments: { a: 20, b: 22 } }] },
        { text: (ctx) => `sum is ${JSON.parse(ctx.lastToolResults[0]!).sum}` },
      ],
    });
    cleanups.push(() => provider.close());
    const compiled = await compileWorker(ws.root, 'web-summarizer');
    expect(compiled.result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(compiled.files.get('src/env.ts')).toContain('readonly "OPENAI-KEY-2"?: string;');
    expect(compiled.files.get('src/env.ts')).toContain('readonly "SUMMARY-CACHE$1"?: KVNamespace;');
    expect(compiled.files.get('src/agents/0-web-summarizer.ts')).toContain('serviceFetch(env, "CALC-MCP")');
    expect(JSON.parse(compiled.files.get('wrangler.jsonc')!.replace(/^\/\/.*\n/gm, '')).services).toEqual([
      { binding: 'CALC-MCP', service: 'calc-mcp' },
    ]);
    const worker = await started(
      startCompiledWorker(compiled.outDir, {
        secrets: { 'OPENAI-KEY-2': 'odd-binding-key-value', AGENTDEF_RECEIPT_KEY: JSON.stringify(keys.privateJwk) },
        upstreams: { 'https://api.openai.com': provider.url },
        services: {
          'CALC-MCP': async (request) => {
            const url = new URL(request.url);
            const response = await fetch(`${mcp.origin}${url.pathname}`, {
              method: request.method,
              headers: [...request.headers].filter(([k]) => k !== 'host'),
              body: await request.text(),
            });
            return new (await import('miniflare')).Response(await response.text(), {
              status: response.status,
              headers: [...response.headers],
            });
          },
        },
      }),
    );
    const answer = await askWithSdk(worker.url, 'add 20 and 22');
    expect(answer.text).toBe('sum is 42');
    expect(provider.requests[0]!.headers['authorization']).toBe('Bearer odd-binding-key-value');
    expect(mcp.calls).toEqual(['add(20,22)']);
    // The MCP server was reached through the service binding, not through the network.
    expect(worker.outbound.map((o) => new URL(o.url).host)).toEqual(['api.openai.com', 'api.openai.com']);
  });

  it('refuses a binding named __proto__ with a located error', async () => {
    ws.edit('text-stats', (d) => {
      d.runtimeRequirements.bindings = [{ kind: 'kv', name: '__proto__' }];
    });
    const compiled = await compileWorker(ws.root, 'text-stats');
    expect(compiled.result.files).toBeUndefined();
    expect(
      compiled.result.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.rule, d.path, d.file]),
    ).toEqual([['worker-bindings', '/runtimeRequirements/bindings/0/name', 'examples/text-stats/agent.json']]);
  });
});

describe('secrets in a definition', () => {
  it('a credential-shaped value stops the compile: nothing is written and no diagnostic echoes it', async () => {
    const key = 'sk-proj-Abcdef0123456789Ghijkl0123456789';
    ws.edit('fallback-writer', (d) => {
      d.metadata.notes = { temporary: `OPENAI=${key}` };
    });
    const compiled = await compileWorker(ws.root, 'fallback-writer');
    expect(compiled.result.files).toBeUndefined();
    expect(compiled.result.diagnostics.some((d) => d.rule === 'secrets' && d.severity === 'error')).toBe(true);
    expect(JSON.stringify(compiled.result.diagnostics)).not.toContain(key.slice(8));
    expect(existsSync(compiled.outDir)).toBe(false);
  });

  it('values no rule can recognise (notes, secret references) reach no output file', async () => {
    const secret = 'correct-horse-battery-staple-7781';
    ws.edit('fallback-writer', (d) => {
      d.metadata.notes = { password: secret };
      d.runtimeRequirements.bindings = [
        { kind: 'secret-ref', name: 'ANTHROPIC_API_KEY', ref: `secrets-store://acme/${secret}` },
      ];
    });
    const compiled = await compileWorker(ws.root, 'fallback-writer');
    expect(compiled.result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const written = filesBelow(compiled.outDir);
    expect([...written.keys()]).toEqual(
      expect.arrayContaining([
        'worker.js',
        'worker.js.map',
        'host-plan.json',
        'loader.js',
        'wrangler.jsonc',
        'agent-card.json',
        'plan.json',
        'src/index.ts',
      ]),
    );
    for (const [path, bytes] of written) expect(bytes.toString('utf8'), path).not.toContain(secret);
    // The secret binding itself is there, by name.
    expect(written.get('wrangler.jsonc')!.toString()).toContain('"ANTHROPIC_API_KEY"');
  });
});
