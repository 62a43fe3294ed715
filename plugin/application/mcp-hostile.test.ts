/**
 * The application tools under attack, against the real host (no SDK): what a caller sends never
 * comes back in an answer when it looks like a secret (a duplicated property name in an entry point
 * value, a secret-looking value that a graph rule would quote), and the live gateway's dispatch
 * record never leaves its folder through an `outbox` that is a link out.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asText, sealed } from './__test-support__/application-manifests';
import {
  ARTIFACTS_FOLDER,
  GREETER_PATH,
  greeterManifest,
  PUBLISHER_PATH,
  writeMcpWorkspace,
} from './__test-support__/mcp-workspace';
import { createApplicationHost } from './application-host';
import type { ApplicationService } from './application-service';
import { createLocalGatewayOwner } from './local-gateway-owner';
import { validateApplicationManifestText } from './manifest-validate';
import { callApplicationTool } from './mcp-tool-calls';
import { EXECUTE_TOOL, PLAN_TOOL } from './mcp-tool-contracts';

/** Shaped like real credentials (the secrets rule's detectors), fit for a port name or a node id. */
const OPENAI_KEY = 'sk-proj-ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef0123';
const KEBAB_KEY = 'sk-abcdefghijklmnopqrstuvwxyz0123456789abcdefghij';

let scratch: string;
let root: string;
let service: ApplicationService;

async function openService(workspace: string): Promise<ApplicationService> {
  const gateway = createLocalGatewayOwner({ workspaceRoot: workspace, folder: ARTIFACTS_FOLDER });
  if (!gateway.ok) throw new Error(gateway.message);
  const opened = await createApplicationHost({ workspaceRoot: workspace, gateway: gateway.gateway });
  if (!opened.ok) throw new Error(opened.message);
  return opened.service;
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'agentdef-mcp-hostile-'));
  root = join(scratch, 'ws');
  mkdirSync(root);
  writeMcpWorkspace(root);
  service = await openService(root);
});
afterAll(async () => {
  await service.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('secret-looking text never comes back', () => {
  it('a duplicated property name in an entry point value is refused at its place without being quoted', async () => {
    for (const name of [OPENAI_KEY, 'a'.repeat(10), 'x" at offset 1 ']) {
      const json = `{${JSON.stringify(name)}:1,${JSON.stringify(name)}:2}`;
      const result = await callApplicationTool(service, EXECUTE_TOOL, {
        mode: 'dry-run',
        manifestPath: GREETER_PATH,
        expectedPlanDigest: 'a'.repeat(64),
        idempotencyKey: 'k',
        inputs: [{ node: 'who', port: 'value', json }],
      });
      expect(result.isError).toBe(true);
      const answer = JSON.stringify(result);
      expect(answer).not.toContain(name.slice(0, 10));
      expect(result.structuredContent).toMatchObject({
        refusal: 'invalid-arguments',
        diagnostics: [
          { path: '/inputs/0/json', message: expect.stringMatching(/duplicate property name at offset \d+$/) },
        ],
      });
    }
  });

  it.each([
    ['a port name', (m: any) => void (m.edges[0].from.port = OPENAI_KEY), OPENAI_KEY],
    [
      'a node id and the edges naming it',
      (m: any) => void (m.nodes[0].id = m.edges[0].from.node = m.entrypoints[0].node = KEBAB_KEY),
      KEBAB_KEY,
    ],
    ['an output name', (m: any) => void (m.outputs[0].name = OPENAI_KEY), OPENAI_KEY],
    [
      'a repeated output name',
      (m: any) => void m.outputs.push({ ...m.outputs[0], name: OPENAI_KEY }, { ...m.outputs[0], name: OPENAI_KEY }),
      OPENAI_KEY,
    ],
  ])('a secret in %s is reported as a secret and quoted by no other diagnostic', async (_what, edit, secret) => {
    const manifest = greeterManifest() as any;
    edit(manifest);
    const text = asText(sealed(manifest), 'json');
    const result = await callApplicationTool(service, PLAN_TOOL, { mode: 'dry-run', manifestText: text });
    expect(result.isError).toBe(true);
    const diagnostics = (result.structuredContent as { diagnostics: { rule: string; message: string }[] }).diagnostics;
    expect(diagnostics.some((d) => d.rule === 'secrets')).toBe(true);
    expect(JSON.stringify(result)).not.toContain(secret.slice(3, 24));

    // Every diagnostic on a line that holds the secret hides that line (the CLI prints source lines).
    const validated = validateApplicationManifestText(text, 'manifest.json', 'json');
    const lines = text.split('\n');
    for (const d of validated.diagnostics) {
      expect(`${d.message} ${d.suggestion ?? ''}`).not.toContain(secret.slice(3, 24));
      if (lines[d.line - 1]?.includes(secret)) expect(d.redactSource, `${d.rule} at line ${d.line}`).toBe(true);
    }
  });
});

describe('bounded answers', () => {
  it('arguments that are not plain data deep inside are located at a bounded ancestor, not echoed a level at a time', async () => {
    let deep: unknown = [() => 'not data'];
    for (let i = 0; i < 5000; i++) deep = [deep];
    const result = await callApplicationTool(service, PLAN_TOOL, {
      mode: 'dry-run',
      manifestPath: GREETER_PATH,
      extra: deep,
    });
    expect(result.isError).toBe(true);
    const [d] = (result.structuredContent as { diagnostics: { path: string; message: string }[] }).diagnostics;
    expect(d!.path.startsWith('/extra/0/0/')).toBe(true);
    expect(d!.path.length).toBeLessThanOrEqual(256);
    expect(d!.message).toMatch(/^the arguments are not plain JSON data \(deeper inside this argument\): /);
    expect(JSON.stringify(result).length).toBeLessThan(4096);
  });
});

describe('the dispatch record stays in its folder', () => {
  it('an outbox that links out of the approved-artifacts folder stops the live step before the dispatch marker, writing nothing outside', async () => {
    const workspace = join(scratch, 'linked-outbox');
    mkdirSync(workspace);
    writeMcpWorkspace(workspace);
    const outside = join(scratch, 'outside-outbox');
    mkdirSync(outside);
    symlinkSync(outside, join(workspace, ARTIFACTS_FOLDER, 'outbox'), 'dir');
    const linked = await openService(workspace);
    try {
      const plan = await callApplicationTool(linked, PLAN_TOOL, { mode: 'live', manifestPath: PUBLISHER_PATH });
      expect(plan.isError, plan.text).toBe(false);
      const digest = (plan.structuredContent as { plan: { digest: string } }).plan.digest;
      const args = {
        mode: 'live',
        manifestPath: PUBLISHER_PATH,
        expectedPlanDigest: digest,
        idempotencyKey: 'outbox-1',
        inputs: [{ node: 'request', port: 'value', json: '{}' }],
      };
      const result = await callApplicationTool(linked, EXECUTE_TOOL, args);
      expect(readdirSync(outside)).toEqual([]);
      expect(result.structuredContent).toMatchObject({
        ok: true,
        run: {
          status: 'stopped',
          stop: { reason: 'failure', node: 'publish', code: 'gateway-unavailable' },
          reconciliationRequired: false,
          steps: [{ status: 'completed' }, { status: 'failed', dispatched: false }, { status: 'not-run' }],
        },
      });
      expect(JSON.stringify(result)).not.toContain(outside);
    } finally {
      await linked.close();
    }
    expect(existsSync(join(outside, 'x'))).toBe(false);
  });
});
