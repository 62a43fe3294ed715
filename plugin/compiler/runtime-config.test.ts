/** The runtime config's receipt settings: the lifecycle stage decides signing; the receipt schema version is checked. */
import { describe, expect, it } from 'vitest';
import type { Finding } from '../definition/diagnostic';
import { chooseRuntime } from './runtime-choice';
import { receiptSettingsFor, RECEIPT_KEY_BINDING, runtimeConfigFor } from './runtime-config';
import { agent, tree } from './test-support';
import { EMPTY_WORKSPACE_CONFIG } from './workspace-config';

const tool = () => agent('text-tool', '1.0.0');

describe('receipt settings', () => {
  it('signs every run from tool-shipped on', () => {
    const findings: Finding[] = [];
    expect(receiptSettingsFor(tool(), findings)).toEqual({
      mode: 'signed',
      schemaVersion: 'receipt/v1',
      signerRef: 'keyref:acme-agents',
      keyBinding: RECEIPT_KEY_BINDING,
    });
    expect(findings).toEqual([]);
  });

  it('emits no signed receipt at tool-prototype, even with a signer set', () => {
    const prototype = { ...tool(), lifecycleState: 'tool-prototype' as const };
    expect(prototype.telemetryContract.receiptSigner).toBe('keyref:acme-agents');
    const { config, diagnostics } = runtimeConfigFor(tree(prototype), 'text-tool@1.0.0', {
      workspace: EMPTY_WORKSPACE_CONFIG,
    });
    expect(config.receipts).toEqual({ mode: 'off', schemaVersion: 'receipt/v1', signerRef: null });
    expect(diagnostics).toEqual([]);
  });

  it('locates a receiptSchemaVersion the runtime does not emit', () => {
    const future = tool();
    future.telemetryContract.receiptSchemaVersion = 'receipt/v2';
    const { diagnostics } = runtimeConfigFor(tree(future), 'text-tool@1.0.0', { workspace: EMPTY_WORKSPACE_CONFIG });
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({
      rule: 'receipt-schema',
      path: '/telemetryContract/receiptSchemaVersion',
      severity: 'error',
    });
    expect(diagnostics[0]!.message).toContain('"receipt/v2"');
  });
});

describe('tool risk in the runtime choice', () => {
  it('moves a workers-preferred agent with a critical-risk tool off the Worker', () => {
    const risky = agent('risky', '1.0.0', {
      cls: 'workers-preferred',
      tools: [{ id: 'shell', name: 'shell', version: '1.0.0', provenance: 'skill-package', risk: 'critical' }],
    });
    const choice = chooseRuntime(tree(risky)).choice;
    expect(choice?.target).toBe('hb3');
    expect(choice?.reason).toContain('critical-risk tool "shell"');
    const calm = agent('calm', '1.0.0', { cls: 'workers-preferred' });
    expect(chooseRuntime(tree(calm)).choice?.target).toBe('cloudflare-dynamic-worker');
  });
});
