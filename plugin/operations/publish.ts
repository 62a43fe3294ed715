/**
 * The publish operation, behind `agentdef publish <file> [--registry dir] [--key keyref:name]
 * [--at date-time] [--worker-url url] [--port n]` and the `agentdef:publish` executor: plans the
 * definition (it must validate and resolve), refuses a file with uncommitted changes, loads the
 * signing key (`--key`, else `identity.signingKeyRef`), reads what the registry holds for the
 * slug (and, when the signing key differs from the previous version's, the previous key that
 * signs the rotation record: previous-signing-key.ts, `--previous-key`), lets trust/publish.ts
 * decide, then writes the immutable snapshot first, created
 * exclusively (never over an existing file: a concurrent publisher that got there first keeps the
 * version, and the loser has touched nothing of it), then the exports and the index entry, each
 * through a flushed temp file and a rename. Every write stays inside the registry folder (a slug
 * folder that is a link out of it, or a file, is refused). A publication interrupted after its
 * snapshot is completed by the next run: the exports it lacks are created, none replaced.
 * From reading the index to writing it back a publish holds the registry's lock
 * (registry/registry-lock.ts), so concurrent publishes into one registry never drop each other's
 * index entries; one that cannot take the lock in time exits 2 having written nothing.
 * Every refusal comes before the first write: a missing previous key leaves the registry as it was.
 * The time is `--at`, else the commit time of HEAD (never the clock), so re-publishing is
 * byte-identical and a no-op. Exit 0 published or unchanged, 1 refused, 2 usage or I/O.
 */
import { isAbsolute, posix, relative, resolve, sep } from 'node:path';
import { planAgent } from '../compiler/compile';
import { FolderRegistry } from '../registry/agent-registry';
import { acquireRegistryLock, DEFAULT_LOCK_WAIT_MS } from '../registry/registry-lock';
import {
  findIndexEntry,
  type RegistryIndex,
  readRegistryIndex,
  showDigest,
  withIndexEntry,
  writeRegistryIndex,
} from '../registry/registry-index';
import { readStoredSnapshot, writeVersionFile } from '../registry/version-files';
import { hasErrors } from '../definition/diagnostic';
import { formatDiagnostics } from '../definition/format-diagnostics';
import { compareSemver, WORKSPACE_DEFAULTS } from '../definition/workspace-definitions';
import { CONTAINER_PORT } from '../host-contract/container-contract';
import { targetFor } from '../targets/targets';
import {
  howToCreateKey,
  KEY_REF_PREFIX,
  type KeyStoreOptions,
  loadPrivateKey,
  parseKeyRef,
} from '../hosts/node/key-store';
import { didKeyOf } from '../trust/did-key';
import type { ReputationAttestation } from '../trust/agentfacts';
import { reputationAttestation } from '../reputation/reputation-attestation';
import { rejectedLines } from '../reputation/reputation-table';
import { computeReputation } from './reputation';
import { preparePublication, previousVersion } from '../trust/publish';
import { publishedSigner } from '../trust/published-signer';
import { folderRegistryFiles } from '../registry/registry-files';
import { publishedFileNames, REGISTRY_INDEX_FILE } from '../registry/registry-layout';
import { findPreviousSigningKey, snapshotKeyRef } from './previous-signing-key';
import { gitStateOf } from './git-state';
import type { ExitCode, OperationIo } from './io';

export interface PublishOptions {
  /** Absolute path of the definition file. */
  file: string;
  workspaceRoot: string;
  /** Relative to the workspace root, or absolute (default `registry/agents`). */
  registryRoot?: string;
  /** `keyref:<name>`; default `identity.signingKeyRef`. */
  keyRef?: string;
  /**
   * The key that signed the previous version, when this one is signed by another: a
   * `keyref:<name>` or a private JWK file (relative to the workspace root, or absolute). Default:
   * found in the key store (previous-signing-key.ts).
   */
  previousKey?: string;
  /** RFC 3339 date-time; default the commit time of HEAD. */
  at?: string;
  workerUrl?: string;
  port?: number;
  keyStore?: KeyStoreOptions;
  /** How long to wait for another publish into the same registry to finish (default {@link DEFAULT_LOCK_WAIT_MS}). */
  lockWaitMs?: number;
  /**
   * `--reputation`: receipt files or folders (relative to `cwd`) scored for this slug@version; the
   * score goes into the credential's reputation attestations. The window ends at the publication time.
   */
  reputation?: { receipts: readonly string[]; cwd: string; window: string; trust?: string };
}

export type PublishOutcome = { code: 0 | 1 | 2; stdout: string; stderr: string };

const toPosix = (path: string) => path.split(sep).join('/');
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** `2026-01-02T03:04:05Z`: whole seconds, UTC. */
function utcSeconds(time: string): string {
  return new Date(Math.floor(Date.parse(time) / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * Why a Worker is not published without `--worker-url`, and how to give it. agentdef never guesses
 * the URL: a workers.dev URL holds the account's own subdomain, and a custom domain is the
 * account's route; a card or credential naming a URL the agent does not answer at would be signed
 * and immutable.
 */
export function workerUrlMissing(slug: string, version: string, shown: string): string {
  return [
    `${slug}@${version} is served as a Cloudflare Worker, and its signed card and AgentFacts credential name the URL it answers at, which only its deployment knows (\`agentdef deploy\` prints it, e.g. https://${slug}.<your-subdomain>.workers.dev): pass it with`,
    `  agentdef publish ${shown} --worker-url https://${slug}.<your-subdomain>.workers.dev`,
    `  nx run ${slug}:publish --worker-url=https://${slug}.<your-subdomain>.workers.dev`,
    `or set it once as the publish target's workerUrl option, in ${posix.join(posix.dirname(shown), 'project.json')} (Nx merges it into the inferred project):`,
    `  { "targets": { "publish": { "options": { "workerUrl": "https://${slug}.<your-subdomain>.workers.dev" } } } }`,
    'Nothing was published',
  ].join('\n');
}

/** Publishes one definition to the folder registry; returns the exit code and what to print. Never throws. */
export async function publishDefinition(options: PublishOptions): Promise<PublishOutcome> {
  const fail = (code: 1 | 2, message: string): PublishOutcome => ({ code, stdout: '', stderr: `error: ${message}\n` });
  try {
    const shown = toPosix(relative(options.workspaceRoot, options.file));
    if (options.at !== undefined && !RFC3339.test(options.at))
      return fail(2, `--at must be an RFC 3339 date-time with a zone (e.g. 2026-01-02T03:04:05Z), not "${options.at}"`);
    const registryRoot = options.registryRoot ?? WORKSPACE_DEFAULTS.registryRoot;
    const planned = await planAgent({ file: options.file, workspaceRoot: options.workspaceRoot, registryRoot });
    if (planned.ioError !== undefined) return fail(2, planned.ioError);
    if (hasErrors(planned.diagnostics) || !planned.plan || !planned.resolved) {
      return {
        code: 1,
        stdout: '',
        stderr: `${formatDiagnostics(planned.diagnostics, { format: 'text', sources: planned.sources })}error: ${shown} does not plan; nothing was published\n`,
      };
    }
    const definition = planned.resolved.definition;
    // Asked before anything else: a Worker's card names the URL it answers at, which only its deployment knows.
    if (targetFor(planned.plan.target).endpoint === 'public-url' && options.workerUrl === undefined)
      return fail(2, workerUrlMissing(definition.identity.slug, definition.identity.versionSemver, shown));

    const gitState = gitStateOf(options.file, shown);
    if (!gitState.ok) return fail(1, gitState.message);
    if (gitState.dirty && gitState.status.startsWith('!!')) {
      return fail(
        1,
        `${shown} is ignored by git (a .gitignore matches it), so no commit holds it: publish records the commit a definition comes from; move it out of the ignored folder (or stop ignoring it) and commit it. Nothing was written`,
      );
    }
    if (gitState.dirty)
      return fail(
        1,
        `${shown} has uncommitted changes (${gitState.status.split('\n')[0]}): commit it first; publish records the commit it comes from, and nothing was written`,
      );

    const keyRef = options.keyRef ?? definition.identity.signingKeyRef;
    if (keyRef === undefined || keyRef === null) {
      return fail(
        1,
        `publishing signs the card and the credential: set identity.signingKeyRef to ${KEY_REF_PREFIX}<name> or pass --key ${KEY_REF_PREFIX}<name>, and ${howToCreateKey('<name>')}`,
      );
    }
    const key = await loadPrivateKey(keyRef, options.keyStore ?? {});
    if (!key.ok)
      return fail(1, `publishing needs the signing key ${parseKeyRef(keyRef).ok ? keyRef : 'given'}: ${key.message}`);

    const attested = await attestationFor(
      options,
      definition.identity,
      key,
      utcSeconds(options.at ?? gitState.commitTime),
    );
    if (!attested.ok) return { code: attested.code, stdout: '', stderr: attested.stderr };

    const root = isAbsolute(registryRoot) ? registryRoot : resolve(options.workspaceRoot, registryRoot);
    const displayRoot = toPosix(relative(options.workspaceRoot, root)) || '.';
    // From reading the index to writing it back, one publish at a time per registry.
    const lock = await acquireRegistryLock(root, displayRoot, options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS);
    if (!lock.ok) return fail(2, lock.error);
    try {
      const outcome = await publishLocked(options, {
        planned: planned as Planned,
        gitState,
        key,
        root,
        displayRoot,
        ...(attested.attestation !== undefined ? { reputation: attested.attestation } : {}),
      });
      return outcome.code === 0 && attested.attestation !== undefined
        ? { ...outcome, stdout: `${outcome.stdout}${attested.summary}`, stderr: `${attested.stderr}${outcome.stderr}` }
        : outcome;
    } finally {
      lock.release();
    }
  } catch (error) {
    return fail(2, `internal error while publishing: ${(error as Error).message}`);
  }
}

type Planned = Awaited<ReturnType<typeof planAgent>> & {
  plan: NonNullable<Awaited<ReturnType<typeof planAgent>>['plan']>;
  resolved: NonNullable<Awaited<ReturnType<typeof planAgent>>['resolved']>;
};

interface Prepared {
  planned: Planned;
  gitState: Extract<ReturnType<typeof gitStateOf>, { ok: true }>;
  key: Extract<Awaited<ReturnType<typeof loadPrivateKey>>, { ok: true }>;
  root: string;
  displayRoot: string;
  reputation?: ReputationAttestation;
}

type Attested =
  | { ok: true; attestation?: ReputationAttestation; summary: string; stderr: string }
  | { ok: false; code: 1 | 2; stderr: string };

/**
 * `--reputation`: the receipts scored (operations/reputation.ts) in the window ending at the
 * publication time, and this slug@version's attestation, issued by the publish key's did:key.
 * Refused (nothing written) when the receipts cannot be read or none counts for this version.
 */
async function attestationFor(
  options: PublishOptions,
  identity: { slug: string; versionSemver: string },
  key: { publicJwk: unknown },
  at: string,
): Promise<Attested> {
  if (options.reputation === undefined) return { ok: true, summary: '', stderr: '' };
  const computed = await computeReputation({
    receipts: options.reputation.receipts,
    cwd: options.reputation.cwd,
    window: options.reputation.window,
    at,
    ...(options.reputation.trust !== undefined ? { trust: options.reputation.trust } : {}),
    ...(options.keyStore !== undefined ? { keyStore: options.keyStore } : {}),
  });
  if (!computed.ok)
    return { ok: false, code: 2, stderr: `error: --reputation: ${computed.message}; nothing was published\n` };
  const { report } = computed;
  const rejected = rejectedLines(report);
  const agent = report.agents.find((a) => a.slug === identity.slug && a.version === identity.versionSemver);
  const issuer = didKeyOf(key.publicJwk as JsonWebKey);
  const attestation =
    agent === undefined || issuer === undefined ? undefined : reputationAttestation(report, agent, issuer);
  if (attestation === undefined)
    return {
      ok: false,
      code: 1,
      stderr: `${rejected}error: --reputation: no receipt for ${identity.slug}@${identity.versionSemver} was counted in ${report.window.from}/${report.window.until} (${report.counted} counted in all): nothing to attest; nothing was published\n`,
    };
  const notCounted = Object.entries(report.ignored)
    .map(([reason, n]) => `${reason} ${n}`)
    .join(', ');
  return {
    ok: true,
    attestation,
    summary: `  reputation ${attestation.score} from ${attestation.receiptCount} receipts (${report.window.from}/${report.window.until}); not counted: ${notCounted}\n`,
    stderr: rejected,
  };
}

/** The part of {@link publishDefinition} that runs holding the registry's lock. */
async function publishLocked(
  options: PublishOptions,
  { planned, gitState, key, root, displayRoot, reputation }: Prepared,
): Promise<PublishOutcome> {
  const fail = (code: 1 | 2, message: string): PublishOutcome => ({ code, stdout: '', stderr: `error: ${message}\n` });
  const definition = planned.resolved.definition;
  try {
    const indexRead = readRegistryIndex(root, displayRoot);
    if (!indexRead.ok) return fail(2, indexRead.problem);
    const index = indexRead.index;
    const { slug, versionSemver: version } = definition.identity;

    const { file: snapshotFile, read: existing } = readStoredSnapshot(root, displayRoot, slug, version);
    if (existing.bytes === undefined && !existing.missing)
      return fail(2, existing.ioError ?? `cannot read ${snapshotFile}`);

    const earlier = previousVersion(
      index.snapshots.filter((e) => e.slug === slug).map((e) => e.version),
      version,
    );
    let previous: { version: string; definition: unknown } | undefined;
    if (earlier !== undefined) {
      try {
        const hit = await new FolderRegistry({ workspaceRoot: options.workspaceRoot, registryRoot: root }).resolve(
          slug,
          earlier,
        );
        if (hit === undefined)
          return fail(
            1,
            `the index records ${slug}@${earlier}, but its snapshot is missing: restore it before publishing a later version`,
          );
        previous = { version: earlier, definition: JSON.parse(new TextDecoder().decode(hit.bytes)) };
      } catch (error) {
        return fail(1, `the published ${slug}@${earlier} cannot be compared with: ${(error as Error).message}`);
      }
    }

    const handOver = await rotationFor(options, { slug, version, earlier, previous, root, displayRoot, key, index });
    if (!handOver.ok) return fail(handOver.code ?? 1, `${handOver.message}; nothing was published`);

    const at = utcSeconds(options.at ?? gitState.commitTime);
    const port =
      options.port ?? (targetFor(planned.plan.target).endpoint === 'public-url' ? undefined : CONTAINER_PORT);
    const decision = await preparePublication({
      resolved: planned.resolved,
      plan: planned.plan,
      commitSha: gitState.commitSha,
      publishedAt: at,
      signingKey: { privateJwk: key.privateJwk, kid: key.kid },
      endpoint: {
        ...(options.workerUrl !== undefined ? { workerUrl: options.workerUrl } : {}),
        ...(port !== undefined ? { port } : {}),
      },
      index,
      ...(existing.bytes !== undefined ? { existingSnapshot: existing.bytes } : {}),
      ...(previous !== undefined ? { previous } : {}),
      ...(handOver.rotation !== undefined ? { rotation: handOver.rotation } : {}),
      ...(reputation !== undefined ? { reputation: [reputation] } : {}),
    });

    if (decision.kind === 'refused')
      return {
        code: 1,
        stdout: '',
        stderr: `${decision.problems.map((p) => `error: ${p}\n`).join('')}nothing was published\n`,
      };
    const written: string[] = [];
    if (decision.kind === 'unchanged') {
      // An interrupted publication: create the exports it lacks, never replacing one.
      for (const file of decision.files) {
        const { shown: name, result } = writeVersionFile(root, displayRoot, slug, file, 'create');
        if (result.ok) written.push(name);
        else if (!result.error.endsWith(' already exists')) return fail(2, result.error);
      }
      if (decision.entry !== undefined) {
        const indexWritten = writeRegistryIndex(root, displayRoot, withIndexEntry(index, decision.entry));
        if (!indexWritten.ok) return fail(2, indexWritten.error);
      }
      const recorded = decision.entry !== undefined ? ' (its index entry is now recorded)' : '';
      const lines = [
        `${slug}@${version} is already published with identical content (${showDigest(decision.sha256)}): nothing to do${recorded}`,
        ...written.map((name) => `  wrote missing ${name}`),
        ...(reputation !== undefined && !written.some((name) => name.endsWith('.agentfacts.vc.json'))
          ? [
              `  its AgentFacts credential is published already and never rewritten: the reputation below is not attested in it (publish a new version to attest it)`,
            ]
          : []),
      ];
      return { code: 0, stdout: `${lines.join('\n')}\n`, stderr: '' };
    }

    // The snapshot first, created exclusively: whoever creates it owns this version.
    const { result: snapshot } = writeVersionFile(root, displayRoot, slug, decision.snapshot, 'create');
    if (!snapshot.ok) return fail(2, `${snapshot.error}; nothing was published`);
    written.push(snapshotFile);
    for (const file of decision.files) {
      const { shown: name, result } = writeVersionFile(root, displayRoot, slug, file, 'replace');
      if (!result.ok)
        return fail(
          2,
          `${result.error}; the registry index is unchanged: run publish again to complete ${slug}@${version}`,
        );
      written.push(name);
    }
    // Re-read under the lock: a writer that takes no lock (an older agentdef) may have recorded a version since.
    const latest = readRegistryIndex(root, displayRoot);
    const base = latest.ok ? latest.index : index;
    const other = findIndexEntry(base, slug, version);
    if (other !== undefined && other.sha256 !== decision.entry.sha256)
      return fail(1, `${slug}@${version} was published concurrently with ${showDigest(other.sha256)}`);
    const indexWrite = writeRegistryIndex(root, displayRoot, withIndexEntry(base, decision.entry));
    if (!indexWrite.ok) return fail(2, `${indexWrite.error}; run publish again to record ${snapshotFile}`);
    written.push(`${displayRoot}/${REGISTRY_INDEX_FILE}`);
    const lines = [
      `published ${slug}@${version} (${showDigest(decision.entry.sha256)}) from commit ${gitState.commitSha} at ${at}, signed by kid ${key.kid}`,
      ...written.map((name) => `  wrote ${name}`),
    ];
    return { code: 0, stdout: `${lines.join('\n')}\n`, stderr: '' };
  } catch (error) {
    return fail(2, `internal error while publishing: ${(error as Error).message}`);
  }
}

/**
 * Whether this version changes the signing key, and if so the old key that signs the hand-over
 * (`<version>.rotation.json`): the signer of the previous version is its credential's verified
 * issuer, as `registry verify` reads it. Refused (nothing written) when that signer cannot be
 * established, when the old key cannot be found (the message says what to pass), or when a later
 * version is already signed by another key than this one (a version published below it would
 * break the chain of signers `registry verify` checks, and published records are never rewritten).
 * A version whose snapshot and rotation record are both stored already needs no key: an identical
 * re-publish stays a no-op after the old key is retired.
 */
async function rotationFor(
  options: PublishOptions,
  here: {
    slug: string;
    version: string;
    earlier: string | undefined;
    previous: { version: string; definition: unknown } | undefined;
    root: string;
    displayRoot: string;
    key: Prepared['key'];
    index: RegistryIndex;
  },
): Promise<
  | { ok: true; rotation?: { previousVersion: string; oldPrivateJwk: JsonWebKey } }
  | { ok: false; message: string; code?: 2 }
> {
  const { slug, version, earlier, root, displayRoot, key, index } = here;
  const next = index.snapshots
    .filter((e) => e.slug === slug && compareSemver(e.version, version) > 0)
    .map((e) => e.version)
    .sort(compareSemver)[0];
  if (earlier === undefined && next === undefined) return { ok: true };
  let files: ReturnType<typeof folderRegistryFiles>;
  try {
    files = folderRegistryFiles(root, displayRoot);
  } catch (error) {
    return { ok: false, code: 2, message: (error as Error).message };
  }
  const newDid = didKeyOf(key.publicJwk as JsonWebKey);
  if (next !== undefined) {
    const nextSigner = await publishedSigner(files, displayRoot, slug, next);
    if (nextSigner.ok && nextSigner.did !== newDid)
      return {
        ok: false,
        message: `${slug}@${next} is published already, signed by kid ${nextSigner.kid}, and ${slug}@${version} would sit below it signed by kid ${key.kid}: registry verify checks each version's signer against the one before it, and a published version (or its rotation record) is never rewritten; sign ${slug}@${version} with the key of ${slug}@${next}, or publish it above ${next}`,
      };
  }
  if (earlier === undefined) return { ok: true };
  const recorded = files.read(`${slug}/${publishedFileNames(version).snapshot}`);
  const rotationStored = files.read(`${slug}/${publishedFileNames(version).rotation}`);
  if (recorded instanceof Uint8Array && rotationStored instanceof Uint8Array) return { ok: true };
  const signer = await publishedSigner(files, displayRoot, slug, earlier);
  if (!signer.ok)
    return {
      ok: false,
      message: `the key that signed ${slug}@${earlier} cannot be established, so whether ${slug}@${version} changes the signing key is unknown: ${signer.message} (registry verify fails it too)`,
    };
  if (signer.did === newDid) return { ok: true };
  const old = await findPreviousSigningKey(
    { slug, version: earlier, did: signer.did, kid: signer.kid },
    options.previousKey,
    snapshotKeyRef(here.previous?.definition),
    options.workspaceRoot,
    options.keyStore ?? {},
  );
  if (!old.ok) return old;
  return { ok: true, rotation: { previousVersion: earlier, oldPrivateJwk: old.privateJwk } };
}

/** {@link publishDefinition}, printing what it says through `io`; returns the exit code. */
export async function publish(options: PublishOptions, io: OperationIo): Promise<ExitCode> {
  const outcome = await publishDefinition(options);
  if (outcome.stdout !== '') io.stdout(outcome.stdout);
  if (outcome.stderr !== '') io.stderr(outcome.stderr);
  return outcome.code;
}
