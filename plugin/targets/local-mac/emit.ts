/**
 * The local host adapter (macOS, and the same launcher on Linux), per docs/local-mac.md:
 *   launch.mjs (the bundled launcher), launcher.json (what `agentdef run` starts),
 *   mcp-servers.json, dev.agentdef.<slug>.plist (LaunchAgent template), agentdef-<slug>.service
 *   (systemd user unit template).
 * The service files are templates: `node launch.mjs --print-service launchd|systemd` fills in this
 * machine's absolute paths. Deterministic: the same plan and sources give the same bytes.
 */
import { stableJson } from '../../compiler/canonical-json';
import type { Adapter, EmittedFile } from '../target';
import { heapLimitMb } from '../../host-contract/heap-limit';
import { secretsOf } from '../../host-contract/node-host-spec';
import {
  launchAgentFile,
  launchAgentTemplate,
  systemdUnitFile,
  systemdUnitTemplate,
} from '../../host-contract/service-templates';
import { emitNodeHost } from '../../compiler/node-host-entry';
import {
  LAUNCH_FILE,
  LAUNCHER_MANIFEST,
  LAUNCHER_VERSION,
  MCP_SERVERS_FILE,
  type LauncherManifest,
} from '../../host-contract/output-files';
import { mcpServersFile } from './mcp-servers-file';

export const localMacAdapter: Adapter = {
  target: 'local-mac',
  hosts: ['local'],
  async emit(plan, resolved, context) {
    const emitted = await emitNodeHost(plan, resolved, context, 'local', 'launcher-main');
    if (emitted.diagnostics) return { diagnostics: emitted.diagnostics };
    const host = emitted.tree.spec;

    const root = host.nodes[host.rootId]!;
    const { slug, version } = root.config.agent;
    const heapMb = root.memoryMb ? heapLimitMb(root.memoryMb) : undefined;
    const manifest: LauncherManifest = {
      launcherVersion: LAUNCHER_VERSION,
      agent: `${slug}@${version}`,
      planDigest: plan.digest,
      entry: LAUNCH_FILE,
      ...(heapMb ? { heapMb } : {}),
      localOnly: host.localOnly,
      mcpServers: Object.keys(host.mcpServers).sort(),
      secrets: secretsOf(host, Object.values(host.nodes)),
      services: { launchd: launchAgentFile(slug), systemd: systemdUnitFile(slug) },
    };
    const files: EmittedFile[] = [
      { path: LAUNCH_FILE, contents: emitted.entry },
      { path: LAUNCHER_MANIFEST, contents: stableJson(manifest) },
      { path: MCP_SERVERS_FILE, contents: stableJson(mcpServersFile(host)) },
      { path: launchAgentFile(slug), contents: launchAgentTemplate(slug, version, heapMb) },
      { path: systemdUnitFile(slug), contents: systemdUnitTemplate(slug, version, heapMb) },
    ];
    return { files };
  },
};
