import { exportPublicKey, generateKey, type KeyStoreOptions, listKeys, parseKeyRef } from '../../hosts/node/key-store';
import type { CommandSpec } from '../specs/command-spec';
import { KEYS } from '../specs/keys';
import { EXIT, type CliIo } from '../io';
import { parseCommand, subcommandError, usageError } from '../usage';

export async function runKeysCommand(argv: string[], io: CliIo): Promise<number> {
  return runKeysCommandWith(argv, io, {});
}

/**
 * The command with the key store's environment injected (tests). As docs/keys.md says: a bad key
 * ref (or option) is a usage error, exit 2, before the key store is touched; a refusal of the key
 * store (the key exists, is missing, or its file is unsafe) exits 1.
 */
export async function runKeysCommandWith(argv: string[], io: CliIo, options: KeyStoreOptions): Promise<number> {
  const [action, ...rest] = argv;
  const json = (value: unknown) => io.stdout(`${JSON.stringify(value, null, 2)}\n`);
  const fail = (message: string) => {
    io.stderr(`error: ${message}\n`);
    return EXIT.invalid;
  };
  /** The one key ref the positionals name, or the usage error's exit code. */
  const oneRef = (spec: CommandSpec, refs: readonly string[]): string | number => {
    if (refs.length !== 1)
      return usageError(io, refs.length === 0 ? 'name the key ref, e.g. keyref:my-agent' : 'name one key ref', spec);
    const parsedRef = parseKeyRef(refs[0]!);
    return parsedRef.ok ? refs[0]! : usageError(io, parsedRef.message, spec);
  };

  if (action === 'list') {
    const parsed = parseCommand(io, KEYS.subcommands.list, rest);
    if (typeof parsed === 'number') return parsed;
    const listed = await listKeys(options);
    if (!listed.ok) return fail(listed.message);
    if (parsed.values.format === 'json') json({ keys: listed.keys });
    else if (listed.keys.length === 0) io.stdout('no keys: create one with `agentdef keys generate keyref:<name>`\n');
    else for (const key of listed.keys) io.stdout(`${key.ref}  kid ${key.kid}  private key: ${key.privateKey}\n`);
    return EXIT.ok;
  }

  if (action === 'generate') {
    const parsed = parseCommand(io, KEYS.subcommands.generate, rest);
    if (typeof parsed === 'number') return parsed;
    const ref = oneRef(KEYS.subcommands.generate, parsed.positionals);
    if (typeof ref === 'number') return ref;
    const generated = await generateKey(ref, { ...options, store: parsed.values.store });
    if (!generated.ok) return fail(generated.message);
    if (parsed.values.format === 'json')
      json({ ref: generated.ref, kid: generated.kid, store: generated.store, publicJwk: generated.publicJwk });
    else {
      io.stdout(
        `generated ${generated.ref} (private key in the ${generated.store === 'keychain' ? 'OS keychain' : 'keys folder, mode 0600'})\n`,
      );
      io.stdout(`kid: ${generated.kid}\npublic JWK: ${JSON.stringify(generated.publicJwk)}\n`);
    }
    return EXIT.ok;
  }

  if (action === 'export-public') {
    const parsed = parseCommand(io, KEYS.subcommands['export-public'], rest);
    if (typeof parsed === 'number') return parsed;
    const ref = oneRef(KEYS.subcommands['export-public'], parsed.positionals);
    if (typeof ref === 'number') return ref;
    const exported = await exportPublicKey(ref, options);
    if (!exported.ok) return fail(exported.message);
    // The JWK itself in both formats (text adds nothing a JWK consumer would choke on); json adds the ref and kid.
    if (parsed.values.format === 'json') json({ ref: exported.ref, kid: exported.kid, publicJwk: exported.publicJwk });
    else json({ ...exported.publicJwk, kid: exported.kid });
    return EXIT.ok;
  }
  return subcommandError(io, KEYS, action);
}
