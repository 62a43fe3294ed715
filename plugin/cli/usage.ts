/**
 * What every verb shares: the usage lines (kept here so `agentdef --help` prints them without
 * loading any command), the usage error and the `--format` check.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { EXIT, type CliIo } from './io';

/** One usage line per verb, in the order `agentdef --help` lists them. */
export const USAGE = {
  validate: 'agentdef validate <file or dir>... [--format text|json]',
  plan: 'agentdef plan <file> [--format text|json] [--registry dir] [--max-depth n] [--max-nodes n]',
  compile: 'agentdef compile <file> [--target auto|cloudflare-dynamic-worker|hb3|local-mac] [--out dir] [--format text|json] [--registry dir] [--max-depth n] [--max-nodes n]',
  run: 'agentdef run <output folder> [--port n] [--weights dir] [--receipts file] [--task-store file] [--serve] [--record dir | --replay dir]',
  dev: 'agentdef dev <output folder> [--port n] [--watch] [--record dir | --replay dir]',
  deploy: 'agentdef deploy <output folder> [--dry-run] [--into dir] [--uninstall] [--service launchd|systemd] [--port n] [--registry host/path]',
  ask: 'agentdef ask <url> <text> [--task id] [--stream] [--key public-jwk-file]',
  keys: [
    'agentdef keys <generate|list|export-public> ...',
    '    agentdef keys generate <keyref:name> [--store folder|keychain] [--format text|json]',
    '    agentdef keys list [--format text|json]',
    '    agentdef keys export-public <keyref:name> [--format text|json]',
  ].join('\n'),
  diff: 'agentdef diff <old file> <new file> [--format text|json]',
  verify: 'agentdef verify <file> [--key public-jwk-file] [--keys dir] [--at date-time] [--format text|json]',
  promote: 'agentdef promote <file> --to <stage> [--key keyref:name] [--at date-time] [--credential file] [--registry dir] [--format text|json]',
  publish: 'agentdef publish <file> [--registry dir] [--key keyref:name] [--at date-time] [--worker-url url] [--port n]',
  registry: 'agentdef registry verify [--registry dir] [--format text|json]',
  mcp: 'agentdef mcp [--workspace dir] [--artifacts dir] [--ledger sqlite file] [--host module]',
  application: [
    'agentdef application <digest|catalog|plan|execute|check> ...',
    '    agentdef application digest <manifest file> [--check]',
    '    agentdef application catalog [--format text|json] [--artifacts dir] [--host module]',
    '    agentdef application plan <manifest file> [--mode dry-run|live] [--format text|json] [--artifacts dir] [--host module]',
    '    agentdef application execute <manifest file> [--mode dry-run|live] [--input node.port=json]... [--inputs file] [--key k] [--expect digest] [--format text|json] [--artifacts dir] [--ledger file] [--host module]',
    '    agentdef application check <manifest file> [--artifacts dir] [--host module] [--inputs file]',
  ].join('\n'),
} as const;

export function usageError(io: CliIo, message: string, usage: string): number {
  io.stderr(`error: ${message}\nusage: ${usage}\n`);
  return EXIT.usage;
}

export function parseFormat(value: unknown): 'text' | 'json' | undefined {
  return value === 'text' || value === 'json' ? value : undefined;
}

/** `parseArgs` with its error turned into the usage error every verb prints; a number is the exit code to return. */
export function parseCommandArgs<T extends ParseArgsConfig>(io: CliIo, usage: string, config: T): ReturnType<typeof parseArgs<T>> | number {
  try {
    return parseArgs(config);
  } catch (error) {
    return usageError(io, withoutKeyMaterial(String((error as Error).message)), usage);
  }
}

/**
 * A parser message with every quoted argument that could be key material replaced by its length:
 * over 40 characters, a line break or control character, JSON, or a run of 16 or more base64
 * characters mixing upper case, lower case and digits. A PEM block, a JWK or a token given where
 * an option belongs is never repeated (this module stays light: no secrets rule is loaded).
 */
function withoutKeyMaterial(message: string): string {
  const mixed = (run: string) => /[A-Z]/.test(run) && /[a-z]/.test(run) && /[0-9]/.test(run);
  const quoted = /'([^']*)'/.exec(message);
  const text = quoted?.[1];
  if (quoted === null || text === undefined) return message.split('\n')[0] ?? '';
  const risky = text.length > 40 || !/^[\x20-\x7e]*$/.test(text) || /[{}"]/.test(text) || (text.match(/[A-Za-z0-9+/_=-]{16,}/g) ?? []).some(mixed);
  // The parser repeats the argument further on (a hint with it after `--`): nothing after it is kept.
  return risky ? `${message.slice(0, quoted.index).trimEnd()} (an argument of ${text.length} characters, not shown)` : (message.split('\n')[0] ?? '');
}
