import { describe, expect, it } from 'vitest';
import {
  fillServiceTemplate,
  launchAgentTemplate,
  stablePort,
  systemdUnitTemplate,
} from '../../host-contract/service-templates';
import { printServiceFile } from './service-files';

const values = {
  NODE: '/opt/node 20/bin/node',
  LAUNCHER: '/Users/mia/a&b/launch.mjs',
  WORKSPACE: '/Users/mia/ws',
  PATH: '/usr/bin:/bin',
  PORT: '7000',
  LOG_DIR: '/Users/mia/.local/state/agentdef/notes',
};

describe('service files', () => {
  it('are templates with placeholders only where machine paths go', () => {
    const plist = launchAgentTemplate('notes', '0.3.0', 768);
    expect(plist).toContain('<string>dev.agentdef.notes</string>');
    expect(plist).toContain('<string>--max-old-space-size=768</string>');
    expect([...plist.matchAll(/@@([A-Z_]+)@@/g)].map((m) => m[1]).sort()).toEqual([
      'LAUNCHER',
      'LOG_DIR',
      'LOG_DIR',
      'NODE',
      'PATH',
      'PORT',
      'WORKSPACE',
      'WORKSPACE',
    ]);
    const unit = systemdUnitTemplate('notes', '0.3.0');
    expect(unit).toContain('ExecStart="@@NODE@@" "@@LAUNCHER@@" --port @@PORT@@');
    expect(unit).toContain('KillSignal=SIGTERM');
  });

  it('fill in with escaping for each format', () => {
    const plist = fillServiceTemplate(launchAgentTemplate('notes', '0.3.0'), 'launchd', values);
    expect(plist).toContain('<string>/Users/mia/a&amp;b/launch.mjs</string>');
    expect(plist).not.toContain('@@');
    const unit = fillServiceTemplate(systemdUnitTemplate('notes', '0.3.0'), 'systemd', {
      ...values,
      WORKSPACE: '/home/mia/100%/$ws',
    });
    expect(unit).toContain('ExecStart="/opt/node 20/bin/node" "/Users/mia/a&b/launch.mjs" --port 7000');
    // Environment= expands specifiers but not variables: `$` stays as it is there (systemd.exec(5)).
    expect(unit).toContain('Environment="AGENTDEF_WORKSPACE=/home/mia/100%%/$ws"');
    expect(unit).toContain('WorkingDirectory=/home/mia/100%%/$ws');
  });

  it('print the filled file for this machine, with a stable port per agent', () => {
    expect(stablePort('notes')).toBe(stablePort('notes'));
    expect(stablePort('notes')).toBeGreaterThanOrEqual(20000);
    expect(stablePort('notes')).toBeLessThan(30000);
    const text = printServiceFile('systemd', 'notes', '0.3.0', undefined, 0, {
      AGENTDEF_WORKSPACE: '/ws',
      PATH: '/bin',
      AGENTDEF_STATE_DIR: '/state',
    })!;
    expect(text).toContain(`--port ${stablePort('notes')}`);
    expect(text).toContain(`ExecStart="${process.execPath}"`);
    expect(text).toContain('WorkingDirectory=/ws');
    expect(printServiceFile('cron', 'notes', '0.3.0', undefined, 0, {})).toBeUndefined();
  });
});
