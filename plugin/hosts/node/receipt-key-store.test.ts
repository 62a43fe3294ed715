/**
 * Tests for how a Node host resolves its receipt key: a `keyref:<name>` signer through the key
 * store first (kid = the key's thumbprint), the receipt key secret as the fallback (kid = the
 * ref), and a start error that says how to create a missing key.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostProgram } from '../../host-contract/node-host-spec';
import { calcTools, memorySink, toolOnlyConfig } from '../../runtime/__test-support__/configs';
import { generateReceiptKeyPair, verifyReceipt } from '../../runtime/receipts';
import { runAgent } from '../../runtime/run-agent';
import { generateKey, loadPrivateKey } from './key-store';
import { startProcessHost } from './process-host';

const NODE = 'adder-tool@0.3.0';
const BINDING = 'RECEIPT_SIGNING_JWK';
const made: string[] = [];
afterEach(() => {
  for (const root of made.splice(0)) rmSync(root, { recursive: true, force: true });
});

function program(): HostProgram {
  const config = toolOnlyConfig({
    receipts: { mode: 'signed', schemaVersion: 'receipt/v1', signerRef: 'keyref:adder', keyBinding: BINDING },
  });
  return {
    host: 'local',
    rootId: NODE,
    kind: 'Service',
    localOnly: false,
    nodes: { [NODE]: { nodeId: NODE, config, secrets: [BINDING], native: [], checkpoints: [] } },
    mcpServers: {},
    tools: calcTools ?? {},
  };
}

function keysEnv(): NodeJS.ProcessEnv {
  const root = mkdtempSync(join(tmpdir(), 'agentdef-receipt-keys-'));
  made.push(root);
  return { AGENTDEF_KEYS_DIR: join(root, 'keys'), AGENTDEF_KEYCHAIN: 'off' };
}

async function start(env: NodeJS.ProcessEnv, secrets: Record<string, string>, withKeyStore = true) {
  const sink = memorySink();
  const host = await startProcessHost({
    program: program(),
    nodeId: NODE,
    env: {},
    secrets: { get: async (name) => secrets[name] },
    secretHint: (name) => `set AGENTDEF_SECRET_${name}`,
    entryFile: '',
    cwd: tmpdir(),
    sink,
    log: () => undefined,
    readCheckpoints: false,
    checkOllama: false,
    ...(withKeyStore ? { receiptKeys: (ref: string) => loadPrivateKey(ref, { env }) } : {}),
  });
  return { host, sink };
}

describe('the receipt key of a Node host', () => {
  it('signs with the key store key of a keyref signer, its thumbprint as kid, no secret needed', async () => {
    const env = keysEnv();
    const generated = await generateKey('keyref:adder', { env });
    if (!generated.ok) throw new Error(generated.message);
    const { host } = await start(env, {});
    const result = await runAgent(host.configs[NODE]!, { text: '', data: { a: 2, b: 40 } }, host.depsFor(NODE));
    await host.close();
    expect(result.answer?.data).toEqual({ sum: 42 });
    expect(result.receipt?.signature.kid).toBe(generated.kid);
    expect(await verifyReceipt(result.receipt, generated.publicJwk)).toBe(true);
  });

  it('prefers the key store over the secret when both are there', async () => {
    const env = keysEnv();
    const generated = await generateKey('keyref:adder', { env });
    if (!generated.ok) throw new Error(generated.message);
    const other = await generateReceiptKeyPair();
    const { host } = await start(env, { [BINDING]: JSON.stringify(other.privateJwk) });
    const result = await runAgent(host.configs[NODE]!, { text: '', data: { a: 1, b: 1 } }, host.depsFor(NODE));
    await host.close();
    expect(result.receipt?.signature.kid).toBe(generated.kid);
    expect(await verifyReceipt(result.receipt, generated.publicJwk)).toBe(true);
  });

  it('falls back to the receipt key secret, with the signer ref as kid', async () => {
    const pair = await generateReceiptKeyPair();
    const { host } = await start(keysEnv(), { [BINDING]: JSON.stringify(pair.privateJwk) });
    const result = await runAgent(host.configs[NODE]!, { text: '', data: { a: 1, b: 2 } }, host.depsFor(NODE));
    await host.close();
    expect(result.receipt?.signature.kid).toBe('keyref:adder');
    expect(await verifyReceipt(result.receipt, pair.publicJwk)).toBe(true);
  });

  it('refuses to start without either, saying how to create the key', async () => {
    const env = keysEnv();
    await expect(start(env, {})).rejects.toThrow(
      `secret ${BINDING} is not set (adder-tool@0.3.0 signs its receipts with it): no private key keyref:adder in ${env['AGENTDEF_KEYS_DIR']} (the keychain is off): create it with \`agentdef keys generate keyref:adder\`; or set AGENTDEF_SECRET_${BINDING}`,
    );
  });

  it('without a key store (containers) needs the secret as before', async () => {
    const env = keysEnv();
    await generateKey('keyref:adder', { env });
    await expect(start(env, {}, false)).rejects.toThrow(
      `secret ${BINDING} is not set (adder-tool@0.3.0 signs its receipts with it): set AGENTDEF_SECRET_${BINDING}`,
    );
  });
});
