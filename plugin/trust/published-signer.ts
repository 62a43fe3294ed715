/**
 * Which key signed a published version of a folder registry: the did:key issuer of its AgentFacts
 * credential (`<slug>/<version>.agentfacts.vc.json`), read strictly and verified at its own
 * `validFrom`, exactly as `agentdef registry verify` establishes a version's signer
 * (registry-verify.ts). `agentdef publish` asks it of the previous version to know whether the
 * version it writes changes the signing key, and so needs a rotation record (key-rotation.ts).
 * Reads through the {@link RegistryFiles} port; never throws.
 */
import type { RegistryFiles } from '../registry/registry-files';
import { publishedFileNames } from '../registry/registry-layout';
import { jwkThumbprint } from '../runtime/jwk-thumbprint';
import { parseSignedJson } from '../runtime/strict-json';
import { verifyCredential } from './agentfacts-credential';
import { resolveDidKey } from './did-key';

export type PublishedSigner =
  | { ok: true; did: string; publicJwk: JsonWebKey; kid: string }
  | { ok: false; message: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The key that signed `slug@version` (its credential's verified did:key issuer), or why it is not known; `displayRoot` names the file. */
export async function publishedSigner(
  files: RegistryFiles,
  displayRoot: string,
  slug: string,
  version: string,
): Promise<PublishedSigner> {
  const name = `${slug}/${publishedFileNames(version).credential}`;
  const shown = `${displayRoot}/${name}`;
  try {
    const bytes = files.read(name);
    if (bytes === undefined) return { ok: false, message: `${shown} is missing` };
    if (typeof bytes === 'string') return { ok: false, message: `${shown} is unreadable: ${bytes}` };
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return { ok: false, message: `${shown} is not UTF-8 text` };
    }
    const parsed = parseSignedJson(text);
    if (!parsed.ok)
      return {
        ok: false,
        message: `${shown} is not strict JSON: line ${parsed.line}, column ${parsed.column}: ${parsed.reason}`,
      };
    const credential = parsed.value;
    const validFrom =
      isRecord(credential) && typeof credential['validFrom'] === 'string' ? credential['validFrom'] : '';
    const result = await verifyCredential(credential, { at: validFrom });
    if (!result.verified || result.issuer === undefined)
      return {
        ok: false,
        message: `${shown} does not verify (${result.failures.map((f) => `${f.pointer || '(document)'}: ${f.message}`).join('; ')})`,
      };
    const did = resolveDidKey(result.issuer);
    if (!did.ok) return { ok: false, message: `${shown}: its issuer is not a did:key` };
    return { ok: true, did: did.did, publicJwk: did.publicJwk, kid: await jwkThumbprint(did.publicJwk) };
  } catch (error) {
    return { ok: false, message: `${shown} cannot be checked: ${(error as Error).message}` };
  }
}
