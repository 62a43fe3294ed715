/**
 * Workspace-level declarations the adapters need beside the definitions, each optional:
 *
 * - `tools.json`: where each `skill-package` tool's implementation lives:
 *   `{ "tools": { "<tool id>": { "module": "./tools/x.ts" | "<npm package>", "export": "<name>" } } }`
 *   (a relative `module` is taken from the workspace root; the export is an async function
 *   `(args, context) => result`).
 * - `mcp.json`: how each MCP server of the tool inventories is reached:
 *   `{ "servers": { "<name>": { "command": "node", "args": ["..."], "env": { "VAR": "secret:NAME" | "env:NAME" } } } }`
 *   for stdio servers, `{ "url": "https://..." }` (and optional `"binding": "<service binding>"`)
 *   for Streamable HTTP servers. Environment values are references, never secret values.
 *
 * Problems are located diagnostics in the file they come from; the files are read once per compile,
 * like definitions (plugin/definition/read-source.ts): regular files inside the workspace, at most
 * as large as a definition; a FIFO, a device or a link out of the workspace is a diagnostic.
 */
import { join } from 'node:path';
import { ERROR_CODES, type Diagnostic, type Finding } from './diagnostic';
import { joinPointer } from './json-pointer';
import { parseDefinitionText } from './parse-document';
import { readDefinitionSource } from './read-source';
import type { SourceDocument } from './source-document';
import { MCP_FILE, TOOLS_FILE } from './workspace-definitions';
import { locateFinding } from './validate-definition';
import { secretFindings } from './rules/secrets';
import { parseEndpointUrl } from '../runtime/endpoint-url';

export interface ToolImplementation {
  /** A package name or a workspace-relative path (posix, starting with `./`). */
  module: string;
  export: string;
}

export type McpServer =
  | { transport: 'stdio'; command: string; args: string[]; env: Record<string, EnvReference> }
  | { transport: 'http'; url: string; binding?: string };

/** `secret:NAME` (from the host's secret source) or `env:NAME` (from the host's environment). */
export interface EnvReference {
  from: 'secret' | 'env';
  name: string;
}

export interface WorkspaceConfig {
  tools: ReadonlyMap<string, ToolImplementation>;
  mcpServers: ReadonlyMap<string, McpServer>;
  /** The files as read, for locating diagnostics (file → document). */
  documents: ReadonlyMap<string, SourceDocument>;
}

export interface LoadedWorkspaceConfig {
  config: WorkspaceConfig;
  diagnostics: Diagnostic[];
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

function readOptional(workspaceRoot: string, file: string): { document?: SourceDocument; diagnostics: Diagnostic[] } {
  const source = readDefinitionSource(join(workspaceRoot, file), file, undefined, workspaceRoot);
  if (source.ioError !== undefined) {
    if (source.missing) return { diagnostics: [] }; // both files are optional
    return {
      diagnostics: [
        {
          code: ERROR_CODES.invalid,
          rule: 'workspace-config',
          severity: 'error',
          path: '',
          file,
          line: 1,
          column: 1,
          message: source.ioError,
        },
      ],
    };
  }
  if (source.text === undefined) return { diagnostics: source.diagnostics };
  const parsed = parseDefinitionText(source.text, file, 'json');
  return parsed.document
    ? { document: parsed.document, diagnostics: parsed.diagnostics }
    : { diagnostics: parsed.diagnostics };
}

function toolsFrom(document: SourceDocument, findings: Finding[]): Map<string, ToolImplementation> {
  const tools = new Map<string, ToolImplementation>();
  const root = document.value as Record<string, unknown>;
  const entries = root['tools'];
  if (!isObject(entries)) {
    findings.push({
      rule: 'workspace-config',
      path: '/tools',
      message: `${TOOLS_FILE} needs a "tools" object mapping tool ids to { module, export }`,
    });
    return tools;
  }
  for (const [id, value] of Object.entries(entries)) {
    const at = joinPointer('/tools', id);
    if (!isObject(value) || typeof value['module'] !== 'string' || typeof value['export'] !== 'string') {
      findings.push({
        rule: 'workspace-config',
        path: at,
        message: `tool "${id}" needs { "module": "<package or ./path>", "export": "<function name>" }`,
      });
      continue;
    }
    const module = value['module'];
    const exported = value['export'];
    if (module.startsWith('/') || module.split('/').includes('..')) {
      findings.push({
        rule: 'workspace-config',
        path: joinPointer(at, 'module'),
        message: `tool "${id}": module must be a package name or a path inside the workspace starting with ./`,
        suggestion: 'write it relative to the workspace root, e.g. "./tools/my-tool.ts"',
      });
      continue;
    }
    if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(exported)) {
      findings.push({
        rule: 'workspace-config',
        path: joinPointer(at, 'export'),
        message: `tool "${id}": export must be a JavaScript identifier`,
      });
      continue;
    }
    tools.set(id, { module, export: exported });
  }
  return tools;
}

function envFrom(value: unknown, at: string, findings: Finding[]): Record<string, EnvReference> | undefined {
  if (value === undefined) return {};
  if (!isObject(value)) {
    findings.push({
      rule: 'workspace-config',
      path: at,
      message: 'env must map variable names to "secret:NAME" or "env:NAME"',
    });
    return undefined;
  }
  const env: Record<string, EnvReference> = {};
  for (const [name, ref] of Object.entries(value)) {
    const match = typeof ref === 'string' ? /^(secret|env):([A-Za-z_][A-Za-z0-9_]{0,127})$/.exec(ref) : null;
    if (!ENV_NAME.test(name) || !match) {
      findings.push({
        rule: 'workspace-config',
        path: joinPointer(at, name),
        message: `env "${name}" must be a reference ("secret:NAME" or "env:NAME"), never a value`,
        suggestion: 'store the value in the keychain or an environment variable and reference it',
        redactSource: true,
      });
      continue;
    }
    env[name] = { from: match[1] as 'secret' | 'env', name: match[2]! };
  }
  return env;
}

/** Whether a URL names a user or a password before its host (`https://token@host/`), parsed or not. */
function hasUserinfo(url: string): boolean {
  const parsed = parseEndpointUrl(url);
  return parsed.ok ? parsed.hasCredentials : /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(url);
}

function serversFrom(document: SourceDocument, findings: Finding[]): Map<string, McpServer> {
  const servers = new Map<string, McpServer>();
  const entries = (document.value as Record<string, unknown>)['servers'];
  if (!isObject(entries)) {
    findings.push({
      rule: 'workspace-config',
      path: '/servers',
      message: `${MCP_FILE} needs a "servers" object mapping server names to a command or a url`,
    });
    return servers;
  }
  for (const [name, value] of Object.entries(entries)) {
    const at = joinPointer('/servers', name);
    if (!NAME.test(name) || !isObject(value)) {
      findings.push({
        rule: 'workspace-config',
        path: at,
        message: `server "${name}" needs { "command", "args"?, "env"? } or { "url" }`,
      });
      continue;
    }
    if (typeof value['command'] === 'string') {
      const args = value['args'] ?? [];
      if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) {
        findings.push({
          rule: 'workspace-config',
          path: joinPointer(at, 'args'),
          message: `server "${name}": args must be a list of strings`,
        });
        continue;
      }
      const env = envFrom(value['env'], joinPointer(at, 'env'), findings);
      if (env) servers.set(name, { transport: 'stdio', command: value['command'], args: args as string[], env });
    } else if (typeof value['url'] === 'string' && hasUserinfo(value['url'])) {
      findings.push({
        rule: 'workspace-config',
        path: joinPointer(at, 'url'),
        redactSource: true,
        message: `server "${name}": url must not carry a user name or password (the value is not shown)`,
        suggestion:
          'give the server its credential through a secret (a service binding, or the environment of its host), never in the URL',
      });
    } else if (typeof value['url'] === 'string' && /^https?:\/\/[^\s/]+/.test(value['url'])) {
      // Read as the runtime reads it (its origin joins the egress allow-list): refused here, located.
      const parsed = parseEndpointUrl(value['url']);
      if (!parsed.ok) {
        findings.push({
          rule: 'workspace-config',
          path: joinPointer(at, 'url'),
          message: `server "${name}": url ${parsed.problem}`,
          suggestion: parsed.suggestion,
        });
        continue;
      }
      const binding = value['binding'];
      servers.set(name, { transport: 'http', url: value['url'], ...(typeof binding === 'string' ? { binding } : {}) });
    } else {
      findings.push({
        rule: 'workspace-config',
        path: at,
        message: `server "${name}" needs a "command" (stdio) or an http(s) "url"`,
      });
    }
  }
  return servers;
}

/** The workspace's tools.json alone, loaded and checked (what `agentdef validate` reads to check the tool mapping). */
export function loadToolsFile(workspaceRoot: string): {
  tools: ReadonlyMap<string, ToolImplementation>;
  document?: SourceDocument;
  diagnostics: Diagnostic[];
} {
  const toolsFile = readOptional(workspaceRoot, TOOLS_FILE);
  if (!toolsFile.document) return { tools: new Map(), diagnostics: toolsFile.diagnostics };
  const findings: Finding[] = [];
  const tools = toolsFrom(toolsFile.document, findings);
  for (const finding of secretFindings(toolsFile.document.value, TOOLS_FILE))
    if (!findings.some((f) => f.path === finding.path)) findings.push(finding);
  return {
    tools,
    document: toolsFile.document,
    diagnostics: [...toolsFile.diagnostics, ...findings.map((f) => locateFinding(toolsFile.document!, f))],
  };
}

export function loadWorkspaceConfig(workspaceRoot: string): LoadedWorkspaceConfig {
  const diagnostics: Diagnostic[] = [];
  const documents = new Map<string, SourceDocument>();
  let mcpServers = new Map<string, McpServer>();
  const toolsFile = loadToolsFile(workspaceRoot);
  const tools = toolsFile.tools;
  diagnostics.push(...toolsFile.diagnostics);
  if (toolsFile.document) documents.set(TOOLS_FILE, toolsFile.document);
  const mcpFile = readOptional(workspaceRoot, MCP_FILE);
  diagnostics.push(...mcpFile.diagnostics);
  if (mcpFile.document) {
    documents.set(MCP_FILE, mcpFile.document);
    const findings: Finding[] = [];
    mcpServers = serversFrom(mcpFile.document, findings);
    for (const finding of secretFindings(mcpFile.document.value, MCP_FILE))
      if (!findings.some((f) => f.path === finding.path)) findings.push(finding);
    diagnostics.push(...findings.map((f) => locateFinding(mcpFile.document!, f)));
  }
  return { config: { tools, mcpServers, documents }, diagnostics };
}

export const EMPTY_WORKSPACE_CONFIG: WorkspaceConfig = {
  tools: new Map(),
  mcpServers: new Map(),
  documents: new Map(),
};
