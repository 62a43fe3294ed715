/** The sandboxing table: provenance picks the hosts, and a critical-risk tool never runs in a Worker. */
import { describe, expect, it } from 'vitest';
import type { ToolRef } from '../schema/generated/agent-definition.types';
import { toolHosts } from './runtime-hosts';

const tool = (provenance: ToolRef['provenance'], risk: ToolRef['risk'], extra: Partial<ToolRef> = {}): ToolRef => ({
  id: 't',
  name: 't',
  version: '1.0.0',
  provenance,
  risk,
  ...extra,
});

describe('toolHosts', () => {
  it('lets provenance decide for low, medium and high risk', () => {
    for (const risk of ['low', 'medium', 'high'] as const) {
      expect(toolHosts(tool('skill-package', risk)).hosts).toEqual(['worker', 'container', 'local']);
      expect(toolHosts(tool('native', risk)).hosts).toEqual(['container', 'local']);
    }
  });

  it('takes the Worker away from a critical-risk tool, and says why', () => {
    const need = toolHosts(tool('skill-package', 'critical'));
    expect(need.hosts).toEqual(['container', 'local']);
    expect(need.reason).toBe('critical-risk tool "t" runs in its own process: a container or the local host');
    expect(toolHosts(tool('mcp', 'critical', { mcpServer: 's', mcpTransport: 'http' })).hosts).toEqual([
      'container',
      'local',
    ]);
    expect(toolHosts(tool('mcp', 'critical', { mcpServer: 's', mcpTransport: 'stdio' })).hosts).toEqual(['local']);
  });
});
