/**
 * The service definitions of a local launcher, shared by the compiler and the Node host: a macOS
 * LaunchAgent (`<label>.plist`) and a systemd user unit (`agentdef-<slug>.service`). The compiler
 * emits them as templates with `@@NAME@@` placeholders where this machine's absolute paths go
 * (outputs carry no absolute paths); the launcher fills them in (hosts/node/service-files.ts) for
 * the machine it runs on: the node binary, the launcher, the workspace (the MCP servers' working
 * folder), the PATH, the port and the log folder. Pure strings.
 *
 * Filling escapes every value for the exact place it goes, so no path or variable can add a
 * directive, an XML element or a specifier expansion:
 * - systemd `Environment="..."`: `\` and `"` backslash-escaped, control characters as C escapes
 *   (`\n`, `\t`, `\xNN`, which systemd unescapes), `%` doubled (specifiers); `$` is literal there.
 * - systemd `ExecStart=` quoted words: the same, and `$` doubled (variable expansion).
 * - systemd `WorkingDirectory=`: takes no quotes or escapes, so `%` is doubled and a value with a
 *   control character (a newline would start a new directive) or leading/trailing blank or
 *   backslash is refused with a {@link ServiceFileError}.
 * - launchd plist: XML-escaped (`& < > " '`), a carriage return as `&#13;` (kept, not normalised),
 *   and characters XML 1.0 cannot hold (other C0 controls, U+FFFE, U+FFFF, unpaired surrogates)
 *   are refused with a {@link ServiceFileError}.
 */

export const PLACEHOLDERS = ['NODE', 'LAUNCHER', 'WORKSPACE', 'PATH', 'PORT', 'LOG_DIR'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

/**
 * A name a service file may be built from: the schema's slug (lower-case words joined by single
 * hyphens, at most 64 characters), so it never holds a path, a dot or a line break.
 * mirrored-names.test.ts holds it to the definition layer's `isSlug`.
 */
export function isServiceSlug(value: string): boolean {
  return value.length <= 64 && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value);
}

export function launchAgentLabel(slug: string): string {
  return `dev.agentdef.${slug}`;
}

export function launchAgentFile(slug: string): string {
  return `${launchAgentLabel(slug)}.plist`;
}

export function systemdUnitFile(slug: string): string {
  return `agentdef-${slug}.service`;
}

const xml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Text inside an XML comment: escaped, and no `--` (which XML forbids there; `1.0.0-a--b` is a valid version). */
const xmlComment = (text: string) => xml(text).replace(/-(?=-)/g, '- ');

/** A value that cannot be written into a service file safely; the message names the value, never quotes it. */
export class ServiceFileError extends Error {
  override readonly name = 'ServiceFileError';
}

export function launchAgentTemplate(slug: string, version: string, heapMb?: number): string {
  const label = launchAgentLabel(slug);
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<!-- agentdef launcher for ${xmlComment(`${slug}@${version}`)}. A template: launch.mjs fills in
     this machine's paths when run with the print-service option set to launchd (docs/local-mac.md);
     save its output as ~/Library/LaunchAgents/${xmlComment(label)}.plist -->
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

/** What each placeholder is, for messages. */
const DESCRIBED: Record<Placeholder, string> = {
  NODE: 'the node binary path',
  LAUNCHER: 'the launcher path',
  WORKSPACE: 'the workspace path (AGENTDEF_WORKSPACE or the current folder)',
  PATH: 'PATH',
  PORT: 'the port',
  LOG_DIR: 'the log folder (AGENTDEF_STATE_DIR)',
};

const DEL = '\\u007f';
const C0_OR_DEL = new RegExp(`[\\u0000-\\u001f${DEL}]`);
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** XML 1.0 allows tab, newline and carriage return among the C0 controls, and no U+FFFE or U+FFFF. */
const NOT_XML = new RegExp(`[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\ufffe${'\\uffff'}]`);

/** Inside a double-quoted systemd word: `\`, `"` and control characters escaped C-style, `%` doubled; `$` too where variables expand. */
function systemdQuoted(text: string, expandsVariables: boolean): string {
  let out = '';
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if (ch === '\\' || ch === '"') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (ch === '%') out += '%%';
    else if (ch === '$' && expandsVariables) out += '$$';
    else out += ch;
  }
  return out;
}

/** A bare systemd path value (WorkingDirectory=): no quoting exists, so what it cannot say is refused. */
function systemdBare(text: string, name: Placeholder): string {
  if (C0_OR_DEL.test(text))
    throw new ServiceFileError(
      `${DESCRIBED[name]} holds a line break or another control character; a systemd unit cannot hold it safely: use a folder without one`,
    );
  if (/^\s|[\s\\]$/.test(text))
    throw new ServiceFileError(
      `${DESCRIBED[name]} starts or ends with a blank or a backslash; a systemd unit cannot hold it safely: use a folder without one`,
    );
  return text.replace(/%/g, '%%');
}

/** Element content of a plist: XML-escaped; what XML 1.0 cannot hold is refused. */
function plistText(text: string, name: Placeholder): string {
  if (NOT_XML.test(text))
    throw new ServiceFileError(
      `${DESCRIBED[name]} holds a control character an XML property list cannot hold: use a path without one`,
    );
  return xml(text).replace(/'/g, '&apos;').replace(/\r/g, '&#13;');
}

/** The systemd directive a template line sets (`ExecStart`, `Environment`, ...). */
function directiveOf(line: string): string {
  return line.slice(0, Math.max(0, line.indexOf('=')));
}

/**
 * The template with this machine's values in place, each escaped for where it goes (see the
 * module comment). Throws a {@link ServiceFileError} for a value that place cannot hold.
 */
export function fillServiceTemplate(
  template: string,
  kind: 'launchd' | 'systemd',
  values: Record<Placeholder, string>,
): string {
  const isPlaceholder = (name: string): name is Placeholder => (PLACEHOLDERS as readonly string[]).includes(name);
  for (const name of PLACEHOLDERS) {
    if (UNPAIRED_SURROGATE.test(values[name]))
      throw new ServiceFileError(
        `${DESCRIBED[name]} is not valid Unicode text (an unpaired surrogate); a service file cannot hold it`,
      );
  }
  if (kind === 'launchd')
    return template.replace(/@@([A-Z_]+)@@/g, (whole, name: string) =>
      isPlaceholder(name) ? plistText(values[name], name) : whole,
    );
  return template
    .split('\n')
    .map((line) => {
      const directive = directiveOf(line);
      return line.replace(/@@([A-Z_]+)@@/g, (whole, name: string) => {
        if (!isPlaceholder(name)) return whole;
        if (directive === 'WorkingDirectory') return systemdBare(values[name], name);
        return systemdQuoted(values[name], directive === 'ExecStart');
      });
    })
    .join('\n');
}
