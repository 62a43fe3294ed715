/**
 * `agentdef run` of an HB3 job that cannot start: a secret the job references is in neither the
 * keychain nor the environment (it says which and how to add it, and starts nothing), or the
 * port is taken (one line from the job, non-zero exit, nothing left running), or the in-container
 * inference server's address is overridden with one the URL parser refuses (issue 23: the job
 * blamed OLLAMA_HOST; it now names the variable).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descendantsOf } from '../../plugin/hosts/node/__test-support__/process-tree';
import {
  agentdefRun,
  compileExample,
  isolatedEnv,
  receiptKeys,
  scratch,
  writeExecutable,
  type Scratch,
} from '../local/support/host-harness';
import { fakeCheckpoint, fakeParseSpans } from './support';

let tmp: Scratch;
beforeAll(async () => {
  tmp = scratch('hb3-bad');
  await compileExample('pdf-extractor', 'hb3', tmp.path('out'));
  await compileExample('splice-resolver', 'hb3', tmp.path('splice'));
  writeExecutable(
    tmp.path('bin'),
    'pdftotext',
    'process.stdin.resume(); process.stdin.on("end", () => console.log("{}"));',
  );
});
afterAll(() => tmp.cleanup());

describe('agentdef run of a job that cannot start', () => {
  it('names the secret missing from the keychain and the environment, and starts nothing', async () => {
    const bin = tmp.path('keychain-bin');
    const asked = tmp.path('asked.txt');
    writeExecutable(
      bin,
      process.platform === 'darwin' ? 'security' : 'secret-tool',
      `require('node:fs').appendFileSync(${JSON.stringify(asked)}, process.argv.slice(2).join(' ') + '\\n'); process.exit(1);`,
    );
    const host = agentdefRun(
      tmp.path('out'),
      [],
      isolatedEnv(tmp.path('home-1'), { AGENTDEF_KEYCHAIN: 'on', PATH: `${bin}:${process.env['PATH']}` }),
    );
    expect(await host.exited).toBe(1);
    const lines = host.stderr().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^error: secret AGENTDEF_RECEIPT_KEY is not set \(the job pdf-extractor@1\.2\.0 references it\): add it with `(secret-tool store|security add-generic-password)[^`]*AGENTDEF_RECEIPT_KEY[^`]*` or set AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY$/,
    );
    expect(readFileSync(asked, 'utf8')).toContain('AGENTDEF_RECEIPT_KEY');
    expect(host.stdout()).toBe('');
  });

  it('names a port already taken, exits non-zero and leaves nothing running', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const env = isolatedEnv(tmp.path('home-2'), {
        AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: (await receiptKeys()).secret,
        AGENTDEF_NATIVE_BIN: tmp.path('bin'),
      });
      const host = agentdefRun(tmp.path('out'), ['--port', String(port)], env);
      expect(await host.exited).toBe(78);
      expect(
        host
          .stderr()
          .split('\n')
          .filter((l) => l.startsWith('agentdef: error:')),
      ).toEqual([
        `agentdef: error: port ${port} on 127.0.0.1 is already in use: stop the process that holds it, or set PORT (or --port) to a free port`,
      ]);
      expect(descendantsOf(host.proc.pid!)).toEqual([]);
    } finally {
      blocker.close();
    }
  });

  it('names an AGENTDEF_INFERENCE_BASE_URL the URL parser refuses, exits non-zero and leaves nothing running', async () => {
    fakeCheckpoint(tmp.path('weights'));
    fakeParseSpans(tmp.path('splice-bin'), tmp.path('parents.txt'));
    for (const value of ['http://127.0.0.1:99999/v1', 'http://[::1/v1', 'http://inference^1.2.3/v1']) {
      const env = isolatedEnv(tmp.path('home-3'), {
        AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: (await receiptKeys()).secret,
        AGENTDEF_NATIVE_BIN: tmp.path('splice-bin'),
        AGENTDEF_INFERENCE_BASE_URL: value,
      });
      const host = agentdefRun(tmp.path('splice'), ['--weights', tmp.path('weights')], env);
      expect(await host.exited, value).toBe(78);
      const errors = host
        .stderr()
        .split('\n')
        .filter((l) => l.startsWith('agentdef: error:'));
      expect(errors, value).toEqual([
        expect.stringMatching(
          /^agentdef: error: splice-resolver@0\.4\.2 cannot start: the base URL of model \S+ \(custom:acme-tuned\) is not a URL the WHATWG URL parser accepts: .*: it comes from AGENTDEF_INFERENCE_BASE_URL; /,
        ),
      ]);
      expect(host.stderr(), value).not.toMatch(/OLLAMA_HOST|internal error/);
      expect(host.stderr(), value).not.toContain(value);
      expect(descendantsOf(host.proc.pid!)).toEqual([]);
    }
  });
});
