import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ToolContext } from '../../runtime/agent-loop';
import { HostStartError } from './host-error';
import { nativeToolHandlers } from './native-tools';

const bin = mkdtempSync(join(tmpdir(), 'agentdef-native-'));
afterAll(() => rmSync(bin, { recursive: true, force: true }));
const tool = (name: string, body: string) => {
  writeFileSync(join(bin, name), `#!/usr/bin/env node\n${body}\n`);
  chmodSync(join(bin, name), 0o755);
};
tool(
  'echo_json',
  'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const a=JSON.parse(s);process.stdout.write(JSON.stringify({got:a,pid:typeof process.pid}))})',
);
tool(
  'env_names',
  'process.stdin.resume();process.stdin.on("end",()=>console.log(JSON.stringify(Object.keys(process.env).sort())))',
);
tool('plain_text', 'process.stdin.resume();process.stdin.on("end",()=>console.log("two words"))');
tool(
  'fails',
  'process.stdin.resume();process.stdin.on("end",()=>{console.error("\\nno parser for this language\\nmore");process.exit(3)})',
);
tool('sleeps', 'setTimeout(()=>{},60000)');
const context = (signal = new AbortController().signal) =>
  ({
    runId: 'R',
    signal,
    fetch,
    tool: { id: 't', name: 't', version: '1', kind: 'native', risk: 'low' },
  }) as ToolContext;
const env = {
  AGENTDEF_NATIVE_BIN: bin,
  PATH: '/usr/bin:/bin',
  HOME: '/home/x',
  OPENAI_API_KEY: 'sk-secret',
  AGENTDEF_RECEIPT_KEY: '{"d":"x"}',
};
const handlersFor = (binary: string) => nativeToolHandlers([{ toolId: binary, binary }], env, () => 'a@1.0.0');

describe('native tools', () => {
  it('pass the arguments as JSON on stdin and return the JSON (or text) from stdout', async () => {
    expect(await handlersFor('echo_json')['echo_json']!({ path: 'a.ts', spans: [1, 2] }, context())).toEqual({
      got: { path: 'a.ts', spans: [1, 2] },
      pid: 'number',
    });
    expect(await handlersFor('plain_text')['plain_text']!({}, context())).toBe('two words');
  });

  it("never see the host's secrets in their environment", async () => {
    const names = (await handlersFor('env_names')['env_names']!({}, context())) as string[];
    expect(names).toContain('PATH');
    expect(names).not.toContain('OPENAI_API_KEY');
    expect(names).not.toContain('AGENTDEF_RECEIPT_KEY');
  });

  it('turn a non-zero exit into tool_failed with the first stderr line', async () => {
    await expect(handlersFor('fails')['fails']!({}, context())).rejects.toMatchObject({
      code: 'tool_failed',
      message: 'no parser for this language',
    });
  });

  it('kill the executable when the run is aborted', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const call = handlersFor('sleeps')['sleeps']!({}, context(controller.signal)) as Promise<unknown>;
    setTimeout(() => controller.abort(new Error('wall clock')), 100);
    await expect(call).rejects.toThrow('wall clock');
    // The executable sleeps 60 s: ending well before, at the abort, is the kill at work.
    expect(Date.now() - started).toBeLessThan(45_000);
  });

  it('stop the start when an executable is not installed, saying where to put it', () => {
    expect(() =>
      nativeToolHandlers([{ toolId: 'ts-splice', binary: 'parse_spans' }], env, () => 'splice-resolver@0.4.2'),
    ).toThrow(
      new HostStartError(
        'native tool "ts-splice" of splice-resolver@0.4.2 needs the executable "parse_spans", which is not installed: put it in the image\'s native-tools/ folder (HB3), or in a folder named by AGENTDEF_NATIVE_BIN or on PATH (local runs)',
      ),
    );
  });
});
