/**
 * Where a local host keeps its state (the receipts file): `AGENTDEF_STATE_DIR`, else
 * `$XDG_STATE_HOME/agentdef`, else `~/.local/state/agentdef`, one folder per agent slug.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env['AGENTDEF_STATE_DIR']) return env['AGENTDEF_STATE_DIR'];
  if (env['XDG_STATE_HOME']) return join(env['XDG_STATE_HOME'], 'agentdef');
  return join(env['HOME'] || homedir(), '.local', 'state', 'agentdef');
}

/** The default receipts file of an agent: `<state dir>/<slug>/receipts.jsonl`. */
export function defaultReceiptsFile(slug: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(stateDir(env), slug, 'receipts.jsonl');
}
