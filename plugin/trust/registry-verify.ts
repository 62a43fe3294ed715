/**
 * `agentdef registry verify`'s core: every snapshot of a folder registry against the digest its
 * index recorded (and every snapshot file listed in the index, every index entry backed by a
 * file), and every export of a published version checked:
 * - the AgentFacts credential (`<version>.agentfacts.vc.json`): its eddsa-jcs-2022 proof and VC
 *   shape, checked at its own `validFrom` (the registry proves what was published; whether the
 *   facts are still fresh is `agentdef verify`'s question, at the time it is asked);
 * - the OASF record (`<version>.oasf.json`, unsigned): the snapshot's `metadata.cardExports.oasf`;
 * - the card (`<version>.card.json`) and the KYM registration (`<version>.kym.json`): their
 *   signatures with the public key of the credential's issuer (a did:key), which must be the key
 *   the card's kid names; the card must be the snapshot's `metadata.cardExports.agentCard`, and the
 *   KYM registration's runtime profile must name the snapshot's digest.
 * - the signer: a version signed by another key than the version before it (same slug) fails
 *   unless a rotation record the old key signed covers the change (trust/key-rotation.ts); each
 *   covered change is reported in `rotations`.
 * Exports and snapshots are parsed strictly (no duplicate member names, no `__proto__`,
 * `constructor` or `prototype` member, nesting at most 64), as every signed document agentdef reads. Reads through a {@link RegistryFiles} port (the folder's:
plugin/registry/registry-files.ts); never throws; says exactly
 * what failed, per file.
 */
import { findIndexEntry, type RegistryIndex, showDigest, snapshotSha256 } from '../registry/registry-index';
import type { RegistryFiles } from '../registry/registry-files';
import { publishedFileNames } from '../registry/registry-layout';
import { checkEveryCardSignature } from '../runtime/card-signature';
import { canonicalize } from '../runtime/jcs';
import { jwkThumbprint } from '../runtime/jwk-thumbprint';
import { parseSignedJson, type StrictJsonResult } from '../runtime/strict-json';
import { verifyCredential } from './agentfacts-credential';
import { resolveDidKey } from './did-key';
import { type KeyRotation, keyRotationProblem } from './key-rotation';
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
  /** Every signing-key change between two versions of a slug that a verified rotation record covers. */
  rotations: KeyRotation[];
}

/** A JSON text read strictly (duplicates, `__proto__`, `constructor`, `prototype` refused), or where it is not. */
function parseText(bytes: Uint8Array): StrictJsonResult | { ok: false; notUtf8: true } {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, notUtf8: true };
  }
  return parseSignedJson(text);
}

/** What a strict-parse failure says: line, column, JSON Pointer and reason. */
function notStrict(parsed: Exclude<ReturnType<typeof parseText>, { ok: true }>): string {
  if ('notUtf8' in parsed) return 'not UTF-8 text';
  return `not strict JSON: line ${parsed.line}, column ${parsed.column}${parsed.pointer === '' ? '' : ` at ${parsed.pointer}`}: ${parsed.reason}`;
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

/** Checks one published version; resolves the did:key that signed it, when its credential verified. */
async function verifyVersion(
  slug: string,
  version: string,
  snapshot: Uint8Array,
  files: RegistryFiles,
  report: (file: string, message: string) => void,
): Promise<string | undefined> {
  const names = publishedFileNames(version);
  const at = (name: string) => `${slug}/${name}`;
  const load = (name: string): unknown => {
    const bytes = files.read(at(name));
    if (bytes === undefined)
      return report(at(name), 'missing: every published version has its signed card, credential and KYM registration');
    if (typeof bytes === 'string') return report(at(name), `unreadable: ${bytes}`);
    // Strictly: a duplicated member (JSON.parse keeps the last, other readers the first), a
    // `__proto__`, `constructor` or `prototype` member, or deep nesting fails here, located.
    const parsed = parseText(bytes);
    if (!parsed.ok) return report(at(name), notStrict(parsed));
    return parsed.value;
  };

  const credential = load(names.credential);
  let publicJwk: JsonWebKey | undefined;
  let signer: string | undefined;
  if (credential !== undefined) {
    const validFrom =
      isRecord(credential) && typeof credential['validFrom'] === 'string' ? credential['validFrom'] : '';
    const result = await verifyCredential(credential, { at: validFrom });
    for (const failure of result.failures)
      report(at(names.credential), `at ${failure.pointer || '(document)'}: ${failure.message}`);
    if (result.verified && result.issuer !== undefined) {
      const did = resolveDidKey(result.issuer);
      if (did.ok) {
        publicJwk = did.publicJwk;
        signer = did.did;
      }
    }
  }
  const kid = publicJwk !== undefined ? await jwkThumbprint(publicJwk) : undefined;
  const checkCard = async (name: string, card: unknown) => {
    if (card === undefined) return;
    if (publicJwk === undefined)
      return report(at(name), "not checked: the credential's issuer key, which signs the card, is not verified");
    // Every signature must verify with the issuer's key: a second, forged or foreign entry fails.
    const result = await checkEveryCardSignature(card, (k) => (k === kid ? publicJwk : undefined));
    if (!result.ok) return report(at(name), `signature: ${result.detail}`);
    for (const entry of result.entries) if (!entry.verified) report(at(name), `signature: ${entry.detail}`);
  };

  const card = load(names.card);
  await checkCard(names.card, card);
  const parsedSnapshot = parseText(snapshot);
  if (!parsedSnapshot.ok) report(at(names.snapshot), notStrict(parsedSnapshot));
  const definition = parsedSnapshot.ok ? parsedSnapshot.value : undefined;
  const metadata = isRecord(definition) ? definition['metadata'] : undefined;
  const exports = isRecord(metadata) ? metadata['cardExports'] : undefined;
  const stamped = isRecord(exports) ? exports['agentCard'] : undefined;
  if (card !== undefined && !sameJson(stamped, card))
    report(at(names.snapshot), `metadata.cardExports.agentCard is not the published card ${at(names.card)}`);

  // The OASF record (unsigned): the snapshot's copy, when the snapshot carries one.
  const stampedOasf = isRecord(exports) ? exports['oasf'] : undefined;
  const oasfBytes = files.read(at(names.oasf));
  if (stampedOasf !== undefined && oasfBytes === undefined)
    report(at(names.oasf), 'missing: the snapshot carries an OASF record (metadata.cardExports.oasf)');
  else if (oasfBytes !== undefined) {
    const oasf = load(names.oasf);
    if (oasf !== undefined && !sameJson(stampedOasf, oasf))
      report(at(names.snapshot), `metadata.cardExports.oasf is not the published OASF record ${at(names.oasf)}`);
  }

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
  return signer;
}

/**
 * A change of signing key between `previous` and this version of `slug`: accepted only with a
 * rotation record (`<slug>/<version>.rotation.json`) the old key signed; resolves it, or reports why not.
 */
async function checkSignerChange(
  rotation: KeyRotation,
  files: RegistryFiles,
  report: (file: string, message: string) => void,
): Promise<KeyRotation | undefined> {
  const name = `${rotation.slug}/${publishedFileNames(rotation.version).rotation}`;
  const change = `${rotation.slug}@${rotation.version} is signed by ${rotation.to}, ${rotation.slug}@${rotation.previousVersion} by ${rotation.from}`;
  const bytes = files.read(name);
  if (bytes === undefined) {
    report(
      `${rotation.slug}/${publishedFileNames(rotation.version).credential}`,
      `the signing key changed and no rotation is recorded: ${change}; a rotation is ${name}, signed by the old key`,
    );
    return undefined;
  }
  if (typeof bytes === 'string') {
    report(name, `unreadable: ${bytes}`);
    return undefined;
  }
  const parsed = parseText(bytes);
  if (!parsed.ok) {
    report(name, notStrict(parsed));
    return undefined;
  }
  const problem = await keyRotationProblem(parsed.value, rotation);
  if (problem !== undefined) {
    report(name, `does not record the rotation (${change}): ${problem}`);
    return undefined;
  }
  return rotation;
}

/** Checks a registry whose index has been read (see the header). */
export async function verifyRegistry(index: RegistryIndex, files: RegistryFiles): Promise<RegistryVerification> {
  const problems: RegistryProblem[] = [];
  const passed: string[] = [];
  const rotations: KeyRotation[] = [];
  /** The last version of each slug whose signer is known (the index is sorted by slug, then semver). */
  let previous: { slug: string; version: string; signer: string } | undefined;
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
        const signer = await verifyVersion(entry.slug, entry.version, bytes, files, report);
        if (signer !== undefined) {
          if (previous?.slug === entry.slug && previous.signer !== signer) {
            const rotation = await checkSignerChange(
              {
                slug: entry.slug,
                previousVersion: previous.version,
                version: entry.version,
                from: previous.signer,
                to: signer,
              },
              files,
              report,
            );
            if (rotation !== undefined) rotations.push(rotation);
          }
          previous = { slug: entry.slug, version: entry.version, signer };
        }
      }
      if (problems.length === before) passed.push(`${entry.slug}@${entry.version}`);
    }
  } catch (error) {
    problems.push({ file: 'index.json', message: `the registry could not be checked: ${(error as Error).message}` });
  }
  return { verified: problems.length === 0, passed, problems, rotations };
}
