/**
 * Hostile manifests through the service: each is refused by `plan` with a located diagnostic and
 * by `execute` as `invalid-manifest`, and nothing runs (the gateway is never invoked, no dispatch
 * record is written). The forms the issue lists: a cycle, a dangling input, two producers, an
 * unreachable node, a kind mismatch, a control field three levels down, a stale source digest, a
 * stale catalog digest, and a wrong mode.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GatewayOwner } from './gateway-owner';
import {
  ARTIFACTS_FOLDER,
  EXAMPLE_INPUTS,
  EXAMPLE_MANIFEST,
  editManifest,
  exampleWorkspace,
  localGateway,
  openHost,
} from './__test-support__/application-workspace';

interface HostileCase {
  name: string;
  rule: string;
  /** Edits the manifest (re-sealed after, unless `raw`). */
  edit?: (m: any) => void;
  /** Edits the file text directly (nothing is re-sealed). */
  raw?: (text: string) => string;
  mode?: string;
  /** The diagnostic's JSON Pointer. */
  path: string | RegExp;
}

const CASES: HostileCase[] = [
  {
    name: 'a cycle',
    rule: 'cycle',
    edit: (m) => {
      // release-notes → loop → release-notes: the artifact fed back as the gateway request.
      m.nodes.push({ id: 'loop', component: { id: 'agentdef.output', revision: '1.0.0' }, config: {} });
      m.edges = m.edges.filter((e: any) => !(e.to.node === 'release-notes'));
      m.edges.push({ from: { node: 'release-notes', port: 'artifact' }, to: { node: 'loop', port: 'value' } });
      m.edges.push({ from: { node: 'loop', port: 'value' }, to: { node: 'release-notes', port: 'request' } });
    },
    path: /^\/edges\/\d+$/,
  },
  {
    name: 'a dangling input',
    rule: 'dangling-input',
    edit: (m) =>
      m.edges.splice(
        m.edges.findIndex((e: any) => e.to.node === 'digest-agent'),
        1,
      ),
    path: /^\/nodes\/2/,
  },
  {
    name: 'two producers for one input',
    rule: 'two-producers',
    edit: (m) => m.edges.push({ from: { node: 'request', port: 'value' }, to: { node: 'agent-plan', port: 'value' } }),
    path: /^\/edges\/\d+/,
  },
  {
    name: 'an unreachable node',
    rule: 'unreachable-node',
    edit: (m) => m.nodes.push({ id: 'stray', component: { id: 'agentdef.output', revision: '1.0.0' }, config: {} }),
    path: /^\/nodes\/6/,
  },
  {
    name: 'a kind mismatch (json into text)',
    rule: 'kind-mismatch',
    edit: (m) => {
      m.edges = m.edges.filter((e: any) => e.to.node !== 'digest-agent');
      m.edges.push({ from: { node: 'request', port: 'value' }, to: { node: 'digest-agent', port: 'prompt' } });
    },
    path: /^\/edges\/\d+/,
  },
  {
    name: 'a control field three levels down',
    rule: 'control-field',
    edit: (m) => {
      m.bounds.limits = { nested: { command: 'rm -rf /' } };
    },
    path: '/bounds/limits/nested/command',
  },
  {
    name: 'a stale source digest',
    rule: 'source-digest',
    raw: (text) => text.replace('"maxSteps": 8', '"maxSteps": 9'),
    path: '/source/sha256',
  },
  {
    name: 'a stale catalog digest',
    rule: 'stale-digest',
    edit: (m) => (m.catalogDigest = 'e'.repeat(64)),
    path: '/catalogDigest',
  },
  { name: 'a wrong mode', rule: 'mode', mode: 'production', path: '/mode' },
];

describe('hostile manifests: a located diagnostic, and nothing executes', () => {
  for (const hostile of CASES) {
    it(hostile.name, async () => {
      const root = exampleWorkspace();
      const file = join(root, EXAMPLE_MANIFEST);
      if (hostile.edit) editManifest(root, hostile.edit);
      if (hostile.raw) writeFileSync(file, hostile.raw(readFileSync(file, 'utf8')));
      let invoked = 0;
      const real = localGateway(root);
      const gateway: GatewayOwner = {
        ...real,
        invoke: async (call) => {
          invoked += 1;
          return real.invoke(call);
        },
      };
      const service = await openHost(root, { gateway });
      const mode = (hostile.mode ?? 'live') as 'live';
      const planned = await service.plan({ manifest: { path: EXAMPLE_MANIFEST }, mode });
      expect(planned.ok).toBe(false);
      const diagnostic = planned.diagnostics.find((d) => d.rule === hostile.rule);
      expect(diagnostic, JSON.stringify(planned.diagnostics.map((d) => [d.rule, d.path]))).toBeDefined();
      if (typeof hostile.path === 'string') expect(diagnostic!.path).toBe(hostile.path);
      else expect(diagnostic!.path).toMatch(hostile.path);
      if (hostile.rule !== 'mode') {
        expect(diagnostic!.file).toBe(EXAMPLE_MANIFEST);
        expect(diagnostic!.line).toBeGreaterThan(1);
      }
      expect(diagnostic!.suggestion ?? '').not.toBe('');

      const executed = await service.execute({
        manifest: { path: EXAMPLE_MANIFEST },
        mode,
        expectedPlanDigest: 'a'.repeat(64),
        idempotencyKey: 'hostile',
        inputs: EXAMPLE_INPUTS,
      });
      expect(executed.ok === false && executed.refusal).toBe('invalid-manifest');
      expect(invoked).toBe(0);
      expect(existsSync(join(root, ARTIFACTS_FOLDER, 'outbox'))).toBe(false);
    });
  }
});
