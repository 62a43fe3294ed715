/**
 * The launcher prints its LaunchAgent and systemd unit filled in for this machine: the emitted
 * templates with the node binary, the launcher, the workspace, PATH, a port and the log folder.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stablePort } from '../../plugin/host-contract/service-templates';
import { REPO, compileExample, isolatedEnv, scratch, type Scratch } from './support/host-harness';

let tmp: Scratch;
beforeAll(async () => {
  tmp = scratch('services');
  await compileExample('local-notes', 'local-mac', tmp.path('out'));
});
afterAll(() => tmp.cleanup());

const print = (kind: string, extra: string[] = []) =>
  execFileSync(process.execPath, [tmp.path('out', 'launch.mjs'), '--print-service', kind, ...extra], {
    cwd: REPO,
    env: isolatedEnv(tmp.path('home'), { AGENTDEF_WORKSPACE: REPO }),
    encoding: 'utf8',
  });

/** Tags open and close in order (a plist is plain XML with no attributes that matter here). */
function balanced(xml: string): boolean {
  const stack: string[] = [];
  for (const m of xml
    .replace(/<\?[^>]*\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>/g, '')
    .matchAll(/<(\/?)([A-Za-z]+)[^>]*?(\/?)>/g)) {
    if (m[3] === '/') continue;
    if (m[1] === '/') {
      if (stack.pop() !== m[2]) return false;
    } else stack.push(m[2]!);
  }
  return stack.length === 0;
}

describe('service files for this machine', () => {
  it('fills the LaunchAgent template with absolute paths and a stable port', () => {
    const plist = print('launchd');
    const template = readFileSync(tmp.path('out', 'dev.agentdef.local-notes.plist'), 'utf8');
    expect(plist.split('\n')).toHaveLength(template.split('\n').length);
    expect(plist).not.toContain('@@');
    expect(balanced(plist)).toBe(true);
    expect(plist).toContain(`<string>${process.execPath}</string>`);
    expect(plist).toContain(`<string>${tmp.path('out', 'launch.mjs')}</string>`);
    expect(plist).toContain(`<string>${REPO}</string>`);
    expect(plist).toContain(`<string>${stablePort('local-notes')}</string>`);
    expect(plist).toContain(
      `<string>${tmp.path('home', '.local', 'state', 'agentdef', 'local-notes')}/launcher.log</string>`,
    );
  });

  it('fills the systemd unit, honouring --port', () => {
    const unit = print('systemd', ['--port', '7412']);
    expect(unit).toContain(
      `ExecStart="${process.execPath}" --max-old-space-size=768 "${tmp.path('out', 'launch.mjs')}" --port 7412`,
    );
    expect(unit).toContain(`WorkingDirectory=${REPO}`);
    expect(unit).not.toContain('@@');
  });

  it('never lets a hostile workspace path or PATH add a directive: escaped where it can be, refused where it cannot', () => {
    const printWith = (kind: string, env: NodeJS.ProcessEnv) =>
      spawnSync(process.execPath, [tmp.path('out', 'launch.mjs'), '--print-service', kind], {
        cwd: REPO,
        env: isolatedEnv(tmp.path('home'), env),
        encoding: 'utf8',
      });
    const template = readFileSync(tmp.path('out', 'agentdef-local-notes.service'), 'utf8');
    // PATH goes into a quoted Environment= value: escaped, one line, no specifier left.
    const hostilePath = `${process.env['PATH']}\nExecStartPre=/bin/sh -c "id"\n%h`;
    const unit = printWith('systemd', { AGENTDEF_WORKSPACE: REPO, PATH: hostilePath });
    expect(unit.status, unit.stderr).toBe(0);
    expect(unit.stdout.split('\n')).toHaveLength(template.split('\n').length);
    expect(unit.stdout).not.toMatch(/^ExecStartPre=/m);
    expect(unit.stdout).toContain('\\nExecStartPre=/bin/sh -c \\"id\\"\\n%%h"');
    // The workspace also goes into WorkingDirectory=, which has no quoting: refused, nothing printed.
    const refused = printWith('systemd', { AGENTDEF_WORKSPACE: `${REPO}\n[Service]\nUser=root` });
    expect(refused.status).not.toBe(0);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/cannot print the systemd service file: the workspace path .* holds a line break/);
    // The plist holds it as element text.
    const plist = printWith('launchd', { AGENTDEF_WORKSPACE: `${REPO}/]]></string><key>x</key><string>` });
    expect(plist.status, plist.stderr).toBe(0);
    expect(balanced(plist.stdout)).toBe(true);
    expect(plist.stdout).toContain(
      `<string>${REPO}/]]&gt;&lt;/string&gt;&lt;key&gt;x&lt;/key&gt;&lt;string&gt;</string>`,
    );
  });
});
