import { exportPublicKey, generateKey, type KeyStoreOptions, listKeys } from '../../hosts/node/key-store';
import { EXIT, type CliIo } from '../io';
import { parseFormat, USAGE, usageError, parseCommandArgs } from '../usage';

export const KEYS_USAGE = USAGE.keys;

export async function runKeysCommand(argv: string[], io: CliIo): Promise<number> {
  return runKeysCommandWith(argv, io, {});
}

/** The command with the key store's environment injected (tests). */
export async function runKeysCommandWith(argv: string[], io: CliIo, options: KeyStoreOptions): Promise<number> {
  const parsed = parseCommandArgs(io, KEYS_USAGE, { args: argv, allowPositionals: true, strict: true, options: { store: { type: 'string' }, format: { type: 'string', default: 'text' } } });
  if (typeof parsed === 'number') return parsed;
  const format = parseFormat(parsed.values.format);
  if (!format) return usageError(io, `--format must be text or json, not "${parsed.values.format}"`, KEYS_USAGE);
  const [action, ...refs] = parsed.positionals;
  const json = (value: unknown) => io.stdout(`${JSON.stringify(value, null, 2)}\n`);
  const fail = (message: string) => {
    io.stderr(`error: ${message}\n`);
    return EXIT.invalid;
  };

  if (action === 'list') {
    if (refs.length > 0 || parsed.values.store !== undefined) return usageError(io, 'keys list takes no ref and no --store', KEYS_USAGE);
    const listed = await listKeys(options);
    if (!listed.ok) return fail(listed.message);
    if (format === 'json') json({ keys: listed.keys });
    else if (listed.keys.length === 0) io.stdout('no keys: create one with `agentdef keys generate keyref:<name>`\n');
    else for (const key of listed.keys) io.stdout(`${key.ref}  kid ${key.kid}  private key: ${key.privateKey}\n`);
    return EXIT.ok;
  }

  if (action !== 'generate' && action !== 'export-public') {
    return usageError(io, action === undefined ? 'name an action: generate, list or export-public' : `unknown keys action "${action}"`, KEYS_USAGE);
  }
  if (refs.length !== 1) return usageError(io, refs.length === 0 ? 'name the key ref, e.g. keyref:my-agent' : 'name one key ref', KEYS_USAGE);
  const ref = refs[0]!;

  if (action === 'generate') {
    const store = parsed.values.store ?? 'folder';
    if (store !== 'folder' && store !== 'keychain') return usageError(io, `--store must be folder or keychain, not "${store}"`, KEYS_USAGE);
    const generated = await generateKey(ref, { ...options, store });
    if (!generated.ok) return fail(generated.message);
    if (format === 'json') json({ ref: generated.ref, kid: generated.kid, store: generated.store, publicJwk: generated.publicJwk });
    else {
      io.stdout(`generated ${generated.ref} (private key in the ${generated.store === 'keychain' ? 'OS keychain' : 'keys folder, mode 0600'})\n`);
      io.stdout(`kid: ${generated.kid}\npublic JWK: ${JSON.stringify(generated.publicJwk)}\n`);
    }
    return EXIT.ok;
  }

  if (parsed.values.store !== undefined) return usageError(io, 'keys export-public takes no --store', KEYS_USAGE);
  const exported = await exportPublicKey(ref, options);
  if (!exported.ok) return fail(exported.message);
  // The JWK itself in both formats (text adds nothing a JWK consumer would choke on); json adds the ref and kid.
  if (format === 'json') json({ ref: exported.ref, kid: exported.kid, publicJwk: exported.publicJwk });
  else json({ ...exported.publicJwk, kid: exported.kid });
  return EXIT.ok;
}
