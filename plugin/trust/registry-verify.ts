/**
 * `agentdef registry verify`'s core: every snapshot of a folder registry against the digest its
 * index recorded (and every snapshot file listed in the index, every index entry backed by a
 * file), and every export of a published version checked:
 * - the AgentFacts credential (`<version>.agentfacts.vc.json`): its eddsa-jcs-2022 proof and VC
 *   shape, checked at its own `validFrom` (the registry proves what was published; whether the
 *   facts are still fresh is `agentdef verify`'s question, at the time it is asked);
 * - the card (`<version>.card.json`) and the KYM registration (`<version>.kym.json`): their
 *   signatures with the public key of the credential's issuer (a did:key), which must be the key
 *   the card's kid names; the card must be the snapshot's `metadata.cardExports.agentCard`, and the
 *   KYM registration's runtime profile must name the snapshot's digest.
 * Exports are parsed strictly (no duplicate member names, nesting at most 64), as every signed
 * document agentdef reads. Reads through a {@link RegistryFiles} port (the folder's:
plugin/registry/registry-files.ts); never throws; says exactly
 * what failed, per file.
 */
import { findIndexEntry, type RegistryIndex, showDigest, snapshotSha256 } from '../registry/registry-index';
import type { RegistryFiles } from '../registry/registry-files';
import { publishedFileNames } from '../registry/registry-layout';
import { verifyAgentCard } from '../runtime/card-signature';
import { canonicalize } from '../runtime/jcs';
import { jwkThumbprint } from '../runtime/jwk-thumbprint';
import { parseStrictJson } from '../runtime/strict-json';
import { verifyCredential } from './agentfacts-credential';
import { resolveDidKey } from './did-key';
import { RUNTIME_PROFILE_EXTENSION_URI } from './publish';

export interface RegistryProblem {
  /** `<slug>/<file>` relative to the registry root, or `index.json`. */
  file: string;
  message: string;
}

export interface RegistryVerification {
  verified: boolean;
  /** `slug@version` of every snapshot that passed every check. */
  passed: string[];
  problems: RegistryProblem[];
}

function parse(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function extensionParams(card: unknown, uri: string): Record<string, unknown> | undefined {
  const capabilities = isRecord(card) ? card['capabilities'] : undefined;
  const extensions =
    isRecord(capabilities) && Array.isArray(capabilities['extensions']) ? capabilities['extensions'] : [];
  const found = extensions.find((e) => isRecord(e) && e['uri'] === uri);
  return isRecord(found) && isRecord(found['params']) ? found['params'] : undefined;
}

function sameJson(a: unknown, b: unknown): boolean {
  try {
    return canonicalize(a) === canonicalize(b);
  } catch {
    return false;
  }
}

async function verifyVersion(
  slug: string,
  version: string,
  snapshot: Uint8Array,
  files: RegistryFiles,
  report: (file: string, message: string) => void,
): Promise<void> {
  const names = publishedFileNames(version);
  const at = (name: string) => `${slug}/${name}`;
  const load = (name: string): unknown => {
    const bytes = files.read(at(name));
    if (bytes === undefined)
      return report(at(name), 'missing: every published version has its signed card, credential and KYM registration');
    if (typeof bytes === 'string') return report(at(name), `unreadable: ${bytes}`);
    // Strictly: a duplicated member (JSON.parse keeps the last, other readers the first) or deep nesting fails here.
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return report(at(name), 'not UTF-8 text');
    }
    const parsed = parseStrictJson(text);
    if (!parsed.ok) return report(at(name), `not strict JSON: ${parsed.reason}`);
    return parsed.value;
  };

  const credential = load(names.credential);
  let publicJwk: JsonWebKey | undefined;
  if (credential !== undefined) {
    const validFrom =
      isRecord(credential) && typeof credential['validFrom'] === 'string' ? credential['validFrom'] : '';
    const result = await verifyCredential(credential, { at: validFrom });
    for (const failure of result.failures)
      report(at(names.credential), `at ${failure.pointer || '(document)'}: ${failure.message}`);
    if (result.verified && result.issuer !== undefined) {
      const did = resolveDidKey(result.issuer);
      if (did.ok) publicJwk = did.publicJwk;
    }
  }
  const kid = publicJwk !== undefined ? await jwkThumbprint(publicJwk) : undefined;
  const checkCard = async (name: string, card: unknown) => {
    if (card === undefined) return;
    if (publicJwk === undefined)
      return report(at(name), "not checked: the credential's issuer key, which signs the card, is not verified");
    const result = await verifyAgentCard(card, (k) => (k === kid ? publicJwk : undefined));
    if (!result.ok) report(at(name), `signature: ${result.detail}`);
  };

  const card = load(names.card);
  await checkCard(names.card, card);
  const definition = parse(snapshot);
  const metadata = isRecord(definition) ? definition['metadata'] : undefined;
  const exports = isRecord(metadata) ? metadata['cardExports'] : undefined;
  const stamped = isRecord(exports) ? exports['agentCard'] : undefined;
  if (card !== undefined && !sameJson(stamped, card))
    report(at(names.snapshot), `metadata.cardExports.agentCard is not the published card ${at(names.card)}`);

  const kym = load(names.kym);
  await checkCard(names.kym, kym);
  if (kym !== undefined) {
    const profile = extensionParams(kym, RUNTIME_PROFILE_EXTENSION_URI);
    const digest = snapshotSha256(snapshot);
    if (profile === undefined) report(at(names.kym), `has no ${RUNTIME_PROFILE_EXTENSION_URI} extension`);
    else if (profile['snapshotSha256'] !== digest)
      report(
        at(names.kym),
        `its runtime profile names snapshot ${showDigest(String(profile['snapshotSha256']))}, the snapshot is ${showDigest(digest)}`,
      );
  }
}

/** Checks a registry whose index has been read (see the header). */
export async function verifyRegistry(index: RegistryIndex, files: RegistryFiles): Promise<RegistryVerification> {
  const problems: RegistryProblem[] = [];
  const passed: string[] = [];
  try {
    const present = new Set(files.snapshots.map((s) => `${s.slug}@${s.version}`));
    for (const snapshot of files.snapshots) {
      if (findIndexEntry(index, snapshot.slug, snapshot.version) === undefined) {
        problems.push({
          file: `${snapshot.slug}/${publishedFileNames(snapshot.version).snapshot}`,
          message:
            'not recorded in index.json: it was not published (or its publication was interrupted: publish it again)',
        });
      }
    }
    for (const entry of index.snapshots) {
      const name = `${entry.slug}/${publishedFileNames(entry.version).snapshot}`;
      const before = problems.length;
      const report = (file: string, message: string) => {
        problems.push({ file, message });
      };
      const bytes = present.has(`${entry.slug}@${entry.version}`) ? files.read(name) : undefined;
      if (bytes === undefined)
        report(name, `missing: index.json records ${entry.slug}@${entry.version} (${showDigest(entry.sha256)})`);
      else if (typeof bytes === 'string') report(name, `unreadable: ${bytes}`);
      else {
        const actual = snapshotSha256(bytes);
        if (actual !== entry.sha256)
          report(
            name,
            `changed after publishing: index.json records ${showDigest(entry.sha256)}, the snapshot is ${showDigest(actual)}`,
          );
        await verifyVersion(entry.slug, entry.version, bytes, files, report);
      }
      if (problems.length === before) passed.push(`${entry.slug}@${entry.version}`);
    }
  } catch (error) {
    problems.push({ file: 'index.json', message: `the registry could not be checked: ${(error as Error).message}` });
  }
  return { verified: problems.length === 0, passed, problems };
}
