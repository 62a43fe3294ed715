import { resolve } from 'node:path';
import { findWorkspaceRoot } from '../../definition/workspace-definitions';
import { parsePort } from '../../host-contract/port';
import { deployCompiledOutput } from '../../operations/deploy';
import { EXIT, type CliIo } from '../io';
import { DEPLOY } from '../specs/deploy';
import { parseCommand, usageError } from '../usage';

export async function runDeployCommand(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, DEPLOY, argv);
  if (typeof parsed === 'number') return parsed;
  if (parsed.positionals.length !== 1)
    return usageError(
      io,
      parsed.positionals.length === 0 ? 'name the compile output folder' : 'name one output folder',
      DEPLOY,
    );
  const { service } = parsed.values;
  const port = parsePort(parsed.values.port);
  if (typeof port === 'string') return usageError(io, port, DEPLOY);
  const code = await deployCompiledOutput({
    outDir: resolve(io.cwd, parsed.positionals[0]!),
    workspaceRoot: findWorkspaceRoot(io.cwd) ?? io.cwd,
    dryRun: parsed.values['dry-run'] === true,
    ...(parsed.values.into !== undefined ? { into: resolve(io.cwd, parsed.values.into) } : {}),
    ...(parsed.values.uninstall === true ? { uninstall: true } : {}),
    ...(service !== undefined ? { service } : {}),
    ...(port !== undefined ? { port } : {}),
    ...(parsed.values.registry !== undefined ? { registry: parsed.values.registry } : {}),
    ...(parsed.values['allow-unregistered'] === true ? { allowUnregistered: true } : {}),
    ...(parsed.values['registry-folder'] !== undefined
      ? { registryRoot: resolve(io.cwd, parsed.values['registry-folder']) }
      : {}),
    stdout: io.stdout,
    stderr: io.stderr,
  });
  return code === 0 ? EXIT.ok : code;
}
