/**
 * `agentdef application plan | execute` under hostile input: entry point files too long or too
 * large for one call, secret-looking property names in input values, a secret-looking literal in a
 * manifest, and `--expect` digests that almost match. Each is a usage error or a refusal with a
 * message; nothing throws, no secret is printed, and a refused `--expect` runs nothing.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asText, sealed } from '../../application/__test-support__/application-manifests';
import {
  ARTIFACTS_FOLDER,
  GREETER_PATH,
  greeterManifest,
  PUBLISHER_PATH,
  writeMcpWorkspace,
} from '../../application/__test-support__/mcp-workspace';
import { ARGUMENT_LIMITS } from '../../application/mcp-tool-contracts';
import { runApplicationCommand } from './application';
import { captureRun } from './test-support';

const SECRET = 'sk-proj-ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef0123';
/** Any part of it shown is too much: the strict JSON parser quotes the first 40 characters of a name. */
const FRAGMENT = SECRET.slice(8, 24);

let scratch: string;
let root: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'agentdef-app-run-hostile-'));
  root = join(scratch, 'ws');
  mkdirSync(root);
  writeMcpWorkspace(root);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const run = (argv: string[]) => captureRun(runApplicationCommand, argv, root);

describe('entry point values', () => {
  it('an --inputs list far longer than any application takes is refused, not a crash', async () => {
    writeFileSync(join(root, 'long.json'), JSON.stringify(new Array(300_000).fill(0)));
    const result = await run(['execute', GREETER_PATH, '--inputs', 'long.json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: --inputs: long\.json holds 300000 entry point values; at most 64/);
  });

  it('an --inputs file larger than the entry point values of one call is refused before it is read', async () => {
    writeFileSync(join(root, 'large.json'), `"${'x'.repeat(ARGUMENT_LIMITS.inputJsonTotal)}"`);
    const result = await run(['execute', GREETER_PATH, '--inputs', 'large.json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: --inputs: large\.json is larger than 4194304 bytes/);
  });

  it('an --inputs path that is not a regular file is refused', async () => {
    const result = await run(['execute', GREETER_PATH, '--inputs', 'applications']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: --inputs: cannot read applications \(not a regular file\)/);
  });

  it('a secret-looking property name is never printed back', async () => {
    const duplicated = `{"${SECRET}": 1, "${SECRET}": 2}`;
    writeFileSync(join(root, 'dup.json'), `{"who.value": ${duplicated}}`);
    writeFileSync(join(root, 'keyed.json'), `{"${SECRET}": 1}`);
    for (const argv of [
      ['--input', `who.value=${duplicated}`],
      ['--inputs', 'dup.json'],
      ['--inputs', 'keyed.json'],
    ]) {
      const result = await run(['execute', GREETER_PATH, ...argv]);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/^error: --input/);
      expect(`${result.stdout}${result.stderr}`).not.toContain(FRAGMENT);
    }
  });
});

describe('a secret-looking literal in a manifest', () => {
  it('is reported without the value and without its source line, in text and JSON', async () => {
    const manifest = greeterManifest() as any;
    manifest.edges[0].from.port = SECRET;
    writeFileSync(join(root, 'applications', 'leaky.json'), asText(sealed(manifest), 'json'));
    for (const format of ['text', 'json']) {
      const result = await run(['plan', 'applications/leaky.json', '--format', format]);
      expect(result.code).toBe(1);
      expect(`${result.stdout}${result.stderr}`).toContain('looks like an OpenAI API key');
      expect(`${result.stdout}${result.stderr}`).not.toContain(FRAGMENT);
    }
  });
});

describe('--expect cannot be bypassed', () => {
  it('case, whitespace, prefix and suffix variants of the accepted digest are refused and run nothing', async () => {
    const planned = await run(['plan', PUBLISHER_PATH, '--mode', 'live', '--format', 'json']);
    expect(planned.code, planned.stderr).toBe(0);
    const digest = JSON.parse(planned.stdout).digest as string;
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    // Not a digest's form: refused by --expect's table as a usage error (exit 2), before the host opens.
    const malformed = [
      digest.toUpperCase(),
      ` ${digest}`,
      `${digest} `,
      `${digest}\n`,
      digest.slice(0, 63),
      `${digest}0`,
      `sha256:${digest}`,
      digest.slice(0, 8),
      '',
    ];
    for (const expected of malformed) {
      const result = await run([
        'execute',
        PUBLISHER_PATH,
        '--mode',
        'live',
        '--expect',
        expected,
        '--input',
        'request.value={}',
        '--key',
        'expect-variant',
      ]);
      expect(result.code, JSON.stringify(expected)).toBe(2);
      expect(result.stderr).toMatch(/^error: --expect: a plan digest is 64 lowercase hexadecimal characters/);
    }
    // A digest's form, but not the plan's: the host refuses it as drift (exit 1).
    const other = `${digest.slice(0, 63)}${digest.endsWith('0') ? '1' : '0'}`;
    const drifted = await run([
      'execute',
      PUBLISHER_PATH,
      '--mode',
      'live',
      '--expect',
      other,
      '--input',
      'request.value={}',
      '--key',
      'expect-variant',
    ]);
    expect(drifted.code, drifted.stderr).toBe(1);
    expect(drifted.stderr).toMatch(/^error: drift: /);
    const outbox = join(root, ARTIFACTS_FOLDER, 'outbox');
    expect(existsSync(outbox) ? readdirSync(outbox) : []).toEqual([]);
    const accepted = await run([
      'execute',
      PUBLISHER_PATH,
      '--mode',
      'live',
      '--expect',
      digest,
      '--input',
      'request.value={}',
      '--key',
      'expect-exact',
    ]);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(readdirSync(outbox)).toHaveLength(1);
  });
});
