/**
 * `agentdef application digest`: the placeholder becomes the real source digest and nothing else
 * in the file changes (JSON, YAML plain and quoted, with comments); `--check` only compares; what
 * it cannot do safely is a located diagnostic and leaves the file as it was.
 */
import {
  chmodSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asText, validManifest } from '../../application/__test-support__/application-manifests';
import { validateApplicationManifestText } from '../../application/manifest-validate';
import { SOURCE_DIGEST_PLACEHOLDER } from '../../application/seal-manifest';
import { runApplicationCommand } from './application';
import { captureRun } from './test-support';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agentdef-app-digest-'));
  writeFileSync(join(root, 'nx.json'), '{}\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const run = (...argv: string[]) => captureRun(runApplicationCommand, argv, root);

/** A valid manifest's text with its digest replaced by the placeholder. */
function placeholderText(format: 'json' | 'yaml'): { text: string; digest: string } {
  const manifest = validManifest();
  const digest = manifest.source.sha256;
  return { text: asText(manifest, format).replace(digest, SOURCE_DIGEST_PLACEHOLDER), digest };
}

describe('agentdef application digest', () => {
  for (const format of ['json', 'yaml'] as const) {
    it(`writes the digest in place of the placeholder and changes no other byte (${format})`, async () => {
      const { text, digest } = placeholderText(format);
      const commented = format === 'yaml' ? `# the composition of the digest example\n${text}` : text;
      const file = `application.${format}`;
      writeFileSync(join(root, file), commented);
      chmodSync(join(root, file), 0o640);
      expect(validateApplicationManifestText(commented, file, format).valid).toBe(false);

      const first = await run('digest', file);
      expect(first).toEqual({ code: 0, stdout: `${file}: wrote source.sha256 ${digest}\n`, stderr: '' });
      const after = readFileSync(join(root, file), 'utf8');
      // JSON keeps its quotes; a plain YAML scalar is written quoted.
      expect(after).toBe(commented.replace(SOURCE_DIGEST_PLACEHOLDER, format === 'json' ? digest : `"${digest}"`));
      expect(validateApplicationManifestText(after, file, format)).toMatchObject({ valid: true });
      expect(statSync(join(root, file)).mode & 0o777).toBe(0o640);
      expect(readdirSync(root).sort()).toEqual([file, 'nx.json']);

      expect(await run('digest', file)).toEqual({
        code: 0,
        stdout: `${file}: source.sha256 ${digest} is up to date\n`,
        stderr: '',
      });
      expect(await run('digest', file, '--check')).toMatchObject({ code: 0 });
    });
  }

  it('replaces a quoted YAML value and a stale digest too', async () => {
    const { text, digest } = placeholderText('yaml');
    const stale = 'f'.repeat(64);
    const quoted = text.replace(SOURCE_DIGEST_PLACEHOLDER, `"${stale}"`);
    writeFileSync(join(root, 'app.yaml'), quoted);
    expect((await run('digest', 'app.yaml')).code).toBe(0);
    expect(readFileSync(join(root, 'app.yaml'), 'utf8')).toBe(quoted.replace(stale, digest));
  });

  it('--check reports a stale digest with exit 1 and writes nothing', async () => {
    const { text, digest } = placeholderText('json');
    writeFileSync(join(root, 'app.json'), text);
    expect(await run('digest', 'app.json', '--check')).toEqual({
      code: 1,
      stdout: `app.json: source.sha256 is stale; the digest is ${digest} (run agentdef application digest app.json to write it)\n`,
      stderr: '',
    });
    expect(readFileSync(join(root, 'app.json'), 'utf8')).toBe(text);
  });

  it('refuses a missing or malformed source.sha256 with a located diagnostic, leaving the file as it was', async () => {
    const manifest = validManifest() as unknown as { source: Record<string, unknown> };
    delete manifest.source['sha256'];
    const missing = asText(manifest, 'json');
    writeFileSync(join(root, 'app.json'), missing);
    const result = await run('digest', 'app.json');
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /source\.sha256 must hold 64 lowercase hex characters[^\n]*\n\s+--> app\.json:5:13 {2}\(\/source\/sha256\)/,
    );
    expect(result.stdout).toContain('set source.sha256 to the placeholder');
    expect(readFileSync(join(root, 'app.json'), 'utf8')).toBe(missing);

    writeFileSync(join(root, 'broken.json'), '{"source": ');
    expect((await run('digest', 'broken.json')).code).toBe(1);
    expect(readFileSync(join(root, 'broken.json'), 'utf8')).toBe('{"source": ');
  });

  it('never removes a file it did not create: a file already at its temp name is left as it was', async () => {
    const { text } = placeholderText('json');
    writeFileSync(join(root, 'application.json'), text);
    const squatter = join(root, `.application.json.agentdef-${process.pid}.tmp`);
    writeFileSync(squatter, "not agentdef's");
    const result = await run('digest', 'application.json');
    expect(result.code).toBe(2);
    expect(readFileSync(squatter, 'utf8')).toBe("not agentdef's");
    expect(readFileSync(join(root, 'application.json'), 'utf8')).toBe(text);
  });

  it('refuses a link, a file of another kind and bad arguments, changing nothing', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'agentdef-app-outside-'));
    try {
      const { text } = placeholderText('json');
      writeFileSync(join(outside, 'app.json'), text);
      symlinkSync(join(outside, 'app.json'), join(root, 'linked.json'));
      const linked = await run('digest', 'linked.json');
      expect(linked.code).toBe(2);
      expect(linked.stderr).not.toContain(outside);
      expect(readFileSync(join(outside, 'app.json'), 'utf8')).toBe(text);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
    // a link inside the workspace: the rename would have replaced the link with a file
    const { text } = placeholderText('json');
    writeFileSync(join(root, 'real.json'), text);
    symlinkSync('real.json', join(root, 'inside-link.json'));
    const inside = await run('digest', 'inside-link.json');
    expect(inside.code).toBe(2);
    expect(inside.stderr).toContain('inside-link.json is a symbolic link');
    expect(lstatSync(join(root, 'inside-link.json')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(root, 'real.json'), 'utf8')).toBe(text);
    expect((await run('digest', 'notes.txt')).code).toBe(2);
    expect((await run('seal', 'app.json')).stderr).toMatch(/unknown application subcommand "seal"/);
    expect((await run('digest')).code).toBe(2);
  });
});
