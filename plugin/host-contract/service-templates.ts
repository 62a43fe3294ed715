/**
 * The service definitions of a local launcher, shared by the compiler and the Node host: a macOS
 * LaunchAgent (`<label>.plist`) and a systemd user unit (`agentdef-<slug>.service`). The compiler
 * emits them as templates with `@@NAME@@` placeholders where this machine's absolute paths go
 * (outputs carry no absolute paths); the launcher fills them in (hosts/node/service-files.ts) for
 * the machine it runs on: the node binary, the launcher, the workspace (the MCP servers' working
 * folder), the PATH, the port and the log folder. Pure strings.
 */

export const PLACEHOLDERS = ['NODE', 'LAUNCHER', 'WORKSPACE', 'PATH', 'PORT', 'LOG_DIR'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

export function launchAgentLabel(slug: string): string {
  return `dev.agentdef.${slug}`;
}

export function launchAgentFile(slug: string): string {
  return `${launchAgentLabel(slug)}.plist`;
}

export function systemdUnitFile(slug: string): string {
  return `agentdef-${slug}.service`;
}

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function launchAgentTemplate(slug: string, version: string, heapMb?: number): string {
  const label = launchAgentLabel(slug);
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<!-- agentdef launcher for ${xml(`${slug}@${version}`)}. Fill in this machine's paths with:
     node launch.mjs --print-service launchd > ~/Library/LaunchAgents/${xml(label)}.plist -->
<plist version="1.0">
<dict>
  <key>Label</key>
  <string>${xml(label)}</string>
  <key>ProgramArguments</key>
  <array>
    <string>@@NODE@@</string>
${heapMb ? `    <string>--max-old-space-size=${heapMb}</string>\n` : ''}    <string>@@LAUNCHER@@</string>
    <string>--port</string>
    <string>@@PORT@@</string>
  </array>
  <key>WorkingDirectory</key>
  <string>@@WORKSPACE@@</string>
  <key>EnvironmentVariables</key>
  <dict>
    <key>AGENTDEF_WORKSPACE</key>
    <string>@@WORKSPACE@@</string>
    <key>PATH</key>
    <string>@@PATH@@</string>
  </dict>
  <key>RunAtLoad</key>
  <true/>
  <key>KeepAlive</key>
  <dict>
    <key>SuccessfulExit</key>
    <false/>
  </dict>
  <key>ThrottleInterval</key>
  <integer>10</integer>
  <key>ExitTimeOut</key>
  <integer>30</integer>
  <key>ProcessType</key>
  <string>Background</string>
  <key>StandardOutPath</key>
  <string>@@LOG_DIR@@/launcher.log</string>
  <key>StandardErrorPath</key>
  <string>@@LOG_DIR@@/launcher.err.log</string>
</dict>
</plist>
`;
}

export function systemdUnitTemplate(slug: string, version: string, heapMb?: number): string {
  return `# agentdef launcher for ${slug}@${version}. Fill in this machine's paths with:
#   node launch.mjs --print-service systemd > ~/.config/systemd/user/${systemdUnitFile(slug)}
#   systemctl --user daemon-reload && systemctl --user enable --now ${systemdUnitFile(slug)}
[Unit]
Description=agentdef launcher for ${slug}@${version}
After=network.target

[Service]
Type=simple
WorkingDirectory=@@WORKSPACE@@
Environment="AGENTDEF_WORKSPACE=@@WORKSPACE@@"
Environment="PATH=@@PATH@@"
ExecStart="@@NODE@@" ${heapMb ? `--max-old-space-size=${heapMb} ` : ''}"@@LAUNCHER@@" --port @@PORT@@
KillSignal=SIGTERM
TimeoutStopSec=30
Restart=on-failure
RestartSec=5

[Install]
WantedBy=default.target
`;
}

/** A stable port per agent for service files (20000–29999), when none is given. */
export function stablePort(slug: string): number {
  let hash = 0x811c9dc5;
  for (const ch of slug) {
    hash ^= ch.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return 20000 + (hash % 10000);
}

const escapeFor = {
  launchd: xml,
  // systemd: inside double quotes, `\` and `"` are escaped; `%` specifiers and `$` expansions doubled.
  systemd: (text: string) => text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%').replace(/\$/g, '$$$$'),
} as const;

export function fillServiceTemplate(template: string, kind: 'launchd' | 'systemd', values: Record<Placeholder, string>): string {
  return template.replace(/@@([A-Z_]+)@@/g, (whole, name: string) => ((PLACEHOLDERS as readonly string[]).includes(name) ? escapeFor[kind](values[name as Placeholder]) : whole));
}
