/**
 * The reference gateway owner under attack: approvals that try to leave their folder, an
 * artifact linked out of it or changed after approval, malformed approvals, an unsafe folder
 * option; and its fences: a dry-run never writes, live writes one dispatch record per step key,
 * a repeat of the key never dispatches again, and dispatch waits for the marker.
 */
import { existsSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GatewayInvocation } from './gateway-owner';
import { createLocalGatewayOwner } from './local-gateway-owner';
import { ARTIFACTS_FOLDER, exampleWorkspace, localGateway } from './__test-support__/application-workspace';

const approvalsOf = (root: string) => JSON.parse(readFileSync(join(root, ARTIFACTS_FOLDER, 'approvals.json'), 'utf8'));
const writeApprovals = (root: string, value: unknown) =>
  writeFileSync(join(root, ARTIFACTS_FOLDER, 'approvals.json'), JSON.stringify(value));
const outbox = (root: string) =>
  existsSync(join(root, ARTIFACTS_FOLDER, 'outbox')) ? readdirSync(join(root, ARTIFACTS_FOLDER, 'outbox')) : [];

function invocation(
  root: string,
  overrides: Partial<GatewayInvocation> = {},
): { call: GatewayInvocation; marks: () => number } {
  const approval = approvalsOf(root).approvals[0];
  let marks = 0;
  return {
    call: {
      mode: 'live',
      artifactDigest: approval.artifactDigest,
      capability: approval.capability,
      request: { topic: 'x' },
      idempotencyKey: 'step-key-1',
      signal: new AbortController().signal,
      markDispatched: async () => {
        marks += 1;
        return { ok: true };
      },
      ...overrides,
    },
    marks: () => marks,
  };
}

describe('the local gateway owner', () => {
  it('refuses a folder option outside the workspace', () => {
    const root = exampleWorkspace();
    for (const folder of ['..', '../elsewhere', '/etc', 'a/../../b', 'a\\b', '']) {
      expect(createLocalGatewayOwner({ workspaceRoot: root, folder }).ok, folder).toBe(false);
    }
    expect(createLocalGatewayOwner({ workspaceRoot: 'relative/root', folder: ARTIFACTS_FOLDER }).ok).toBe(false);
  });

  it('refuses approvals whose file leaves the folder, or that carry anything else', async () => {
    const root = exampleWorkspace();
    const good = approvalsOf(root);
    const entry = good.approvals[0];
    const hostile = [
      { ...entry, file: '../release-brief/application.json' },
      { ...entry, file: '/etc/passwd' },
      { ...entry, file: 'approvals.json' },
      { ...entry, live: 'yes' },
      { ...entry, command: 'rm -rf /' },
      { ...entry, artifactDigest: entry.artifactDigest.toUpperCase() },
    ];
    for (const approval of hostile) {
      writeApprovals(root, { ...good, approvals: [approval] });
      const gateway = localGateway(root);
      expect((await gateway.evidence()).ok, JSON.stringify(approval)).toBe(false);
      const { call, marks } = invocation(root, { artifactDigest: entry.artifactDigest, capability: entry.capability });
      expect((await gateway.invoke(call)).status).not.toBe('completed');
      expect(marks()).toBe(0);
    }
    expect(outbox(root)).toEqual([]);
  });

  it('refuses an artifact linked out of its folder, and one changed after approval, without dispatching', async () => {
    const root = exampleWorkspace();
    const entry = approvalsOf(root).approvals[0];
    const file = join(root, ARTIFACTS_FOLDER, entry.file);
    const original = readFileSync(file);
    writeFileSync(file, Buffer.concat([original, Buffer.from('tampered')]));
    let { call, marks } = invocation(root);
    expect(await localGateway(root).invoke(call)).toMatchObject({ status: 'failed', code: 'artifact-digest-mismatch' });
    expect(marks()).toBe(0);
    expect(await localGateway(root).check(entry.artifactDigest, entry.capability, '/nodes/3/config')).toHaveLength(1);

    // The same bytes outside the folder, reached through a link: refused without being read.
    const outside = join(root, 'outside.md');
    writeFileSync(outside, original);
    const linked = join(root, ARTIFACTS_FOLDER, entry.file);
    rmSync(linked);
    symlinkSync(outside, linked);
    ({ call, marks } = invocation(root));
    expect(await localGateway(root).invoke(call)).toMatchObject({ status: 'failed', code: 'artifact-unreadable' });
    expect(marks()).toBe(0);
    expect(outbox(root)).toEqual([]);
  });

  it('an unapproved capability is an approval boundary, never a dispatch', async () => {
    const root = exampleWorkspace();
    const { call, marks } = invocation(root, { capability: 'release-notes.delete' });
    expect((await localGateway(root).invoke(call)).status).toBe('approval-required');
    expect(marks()).toBe(0);
    expect(outbox(root)).toEqual([]);
  });

  it('dry-run never writes; live writes one record per step key after the marker, and a repeat never dispatches again', async () => {
    const root = exampleWorkspace();
    const gateway = localGateway(root);
    const dry = invocation(root, { mode: 'dry-run' });
    expect(await gateway.invoke(dry.call)).toMatchObject({
      status: 'completed',
      outputs: { artifact: { dispatched: false } },
    });
    expect(dry.marks()).toBe(0);
    expect(outbox(root)).toEqual([]);

    const first = invocation(root);
    expect(await gateway.invoke(first.call)).toMatchObject({
      status: 'completed',
      outputs: { artifact: { dispatched: true, replayed: false } },
    });
    expect(first.marks()).toBe(1);
    const records = outbox(root);
    expect(records).toHaveLength(1);
    const record = readFileSync(join(root, ARTIFACTS_FOLDER, 'outbox', records[0]!), 'utf8');
    expect(record).not.toContain('step-key-1'); // the key's digest only, never the request or the key
    expect(record).not.toContain('"topic"');

    const again = invocation(root);
    expect(await gateway.invoke(again.call)).toMatchObject({
      status: 'completed',
      outputs: { artifact: { replayed: true } },
    });
    expect(outbox(root)).toHaveLength(1);
  });

  it('does not dispatch when the marker is refused or the caller cancelled', async () => {
    const root = exampleWorkspace();
    const refused = invocation(root, { markDispatched: async () => ({ ok: false, message: 'ledger refused' }) });
    expect(await localGateway(root).invoke(refused.call)).toMatchObject({ status: 'failed', code: 'dispatch-refused' });
    const controller = new AbortController();
    controller.abort();
    const cancelled = invocation(root, { signal: controller.signal });
    expect(await localGateway(root).invoke(cancelled.call)).toMatchObject({ status: 'failed', code: 'cancelled' });
    expect(cancelled.marks()).toBe(0);
    expect(outbox(root)).toEqual([]);
  });
});
