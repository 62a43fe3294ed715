/** `agentdef publish <file> …`: its arguments become the options of the publish operation (plugin/operations/publish.ts). */
import { join, resolve } from 'node:path';
import { KEY_REF_PREFIX } from '../../hosts/node/key-ref';
import { findWorkspaceRoot } from '../../definition/workspace-definitions';
import { publish } from '../../operations/publish';
import type { CliIo } from '../io';
import { PUBLISH } from '../specs/publish';
import { parseCommand, usageError } from '../usage';

/** `--previous-key`: a key ref as given, else a file path resolved against the working folder. */
function previousKeyFrom(given: string, cwd: string): string {
  return given.startsWith(KEY_REF_PREFIX) ? given : resolve(cwd, given);
}

export async function runPublishCommand(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, PUBLISH, argv);
  if (typeof parsed === 'number') return parsed;
  if (parsed.positionals.length !== 1)
    return usageError(
      io,
      parsed.positionals.length === 0
        ? 'name the definition file to publish'
        : `name one definition file, not ${parsed.positionals.length}`,
      PUBLISH,
    );
  const portText = parsed.values.port;
  if (portText !== undefined && !/^[1-9]\d{0,4}$/.test(portText))
    return usageError(io, `--port must be a port number, not "${portText}"`, PUBLISH);
  const reputation = parsed.values.reputation ?? [];
  if (reputation.length === 0 && (parsed.values.trust !== undefined || parsed.values.window !== '30d'))
    return usageError(
      io,
      '--trust and --window say how --reputation receipts are scored: give --reputation too',
      PUBLISH,
    );
  const file = resolve(io.cwd, parsed.positionals[0]!);
  const workspaceRoot = findWorkspaceRoot(join(file, '..')) ?? findWorkspaceRoot(io.cwd) ?? io.cwd;
  return publish(
    {
      file,
      workspaceRoot,
      ...(parsed.values.registry !== undefined ? { registryRoot: resolve(io.cwd, parsed.values.registry) } : {}),
      ...(parsed.values.key !== undefined ? { keyRef: parsed.values.key } : {}),
      ...(parsed.values['previous-key'] !== undefined
        ? { previousKey: previousKeyFrom(parsed.values['previous-key'], io.cwd) }
        : {}),
      ...(parsed.values.at !== undefined ? { at: parsed.values.at } : {}),
      ...(parsed.values['worker-url'] !== undefined ? { workerUrl: parsed.values['worker-url'] } : {}),
      ...(portText !== undefined ? { port: Number(portText) } : {}),
      ...(reputation.length > 0
        ? {
            reputation: {
              receipts: reputation,
              cwd: io.cwd,
              window: parsed.values.window,
              ...(parsed.values.trust !== undefined ? { trust: parsed.values.trust } : {}),
            },
          }
        : {}),
    },
    io,
  );
}
