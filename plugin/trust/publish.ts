/**
 * What `agentdef publish` writes, decided without I/O: given a validated definition, its compile
 * plan, the commit and time it is published at, the signing key and what the registry already
 * holds for the slug, either the files to write (the immutable snapshot `<slug>/<version>.json`,
 * its signed exports `<version>.card.json`, `<version>.agentfacts.vc.json`, `<version>.kym.json`,
 * its OASF record `<version>.oasf.json`, and the index entry) or why publishing is refused, or that the same content is published already.
 * "Already published" carries the exports too: a publication interrupted after its snapshot was
 * created is completed by writing the exports it lacks (the shell never replaces one).
 *
 * - The snapshot is the definition with `metadata.provenance.commitSha` stamped (provenance is
 *   required at publish) and `metadata.cardExports.agentCard` = the signed A2A card the compiler
 *   generates (never hand-written) and `metadata.cardExports.oasf` = its OASF record
 *   (definition/oasf/oasf-record.ts: created_at the publication time, by default the commit's; the
 *   card and Worker locators; the signed card as its A2A module); it must pass validation, the
 *   card-exports and oasf-export rules included. A skill that maps to no OASF skill refuses.
 * - The KYM registration document is the card plus a runtime-profile extension naming the
 *   runtimes the plan supports (`plan.runtime.hosts`), signed as a card (A2A §8.4) itself.
 * - Where the signing key differs from the previous version's (`input.rotation`), the exports
 *   include `<version>.rotation.json`: the old key's signed hand-over to the new one.
 * - Refusals: the same version with other content (both digests), another `identity.id` than the
 *   slug's published versions, a `versionId` already used, a bump smaller than the semver policy
 *   requires against the highest earlier version (with the changes that require more).
 * Deterministic: the time comes from the caller; Ed25519 signatures are deterministic, so the same
 * inputs give the same bytes. Never throws.
 */
import { buildAgentCard, type AgentCard, type AgentExtension } from '../runtime/agent-card';
import { signAgentCard } from '../runtime/card-signature';
import { runtimeConfigFor } from '../compiler/runtime-config';
import { EMPTY_WORKSPACE_CONFIG } from '../compiler/workspace-config';
import type { CompilePlan } from '../compiler/plan';
import type { ResolvedNode } from '../compiler/resolve';
import {
  type RegistryIndex,
  type RegistryIndexEntry,
  findIndexEntry,
  showDigest,
  snapshotSha256,
} from '../registry/registry-index';
import { publishedFileNames } from '../registry/registry-layout';
import { validateDefinitionSource } from '../definition/validate-definition';
import { withoutPublishStamps } from '../definition/publish-stamps';
import { projectOasfRecord } from '../definition/oasf/oasf-record';
import { targetFor } from '../targets/targets';
import { compareSemver, kymRef } from '../definition/workspace-definitions';
import type { AgentDefinition } from '../schema/generated/agent-definition.types';
import { issueAgentFactsCredential } from './agentfacts-credential';
import { agentFactsEndpoint, type ReputationAttestation } from './agentfacts';
import { checkBump, diffDefinitions } from './definition-diff';
import { didKeyOf } from './did-key';
import { signKeyRotation } from './key-rotation';

export const RUNTIME_PROFILE_EXTENSION_URI = 'urn:agentdef:extension:runtime-profile:v1';

export interface PublishInput {
  /** The root of a successful plan (validated, resolved). */
  resolved: ResolvedNode;
  plan: CompilePlan;
  /** The commit the definition is published from (40 or 64 lower-case hex). */
  commitSha: string;
  /** RFC 3339 date-time with a zone: the credential's validFrom. */
  publishedAt: string;
  signingKey: { privateJwk: JsonWebKey; kid: string };
  /** Where the agent is served: the Worker's https URL, or the launcher's loopback port. */
  endpoint: { workerUrl?: string; port?: number };
  /** The registry index as read. */
  index: RegistryIndex;
  /** The bytes of the stored snapshot of this slug@version, when there is one. */
  existingSnapshot?: Uint8Array;
  /** The parsed snapshot of the highest published version below this one, when there is one. */
  previous?: { version: string; definition: unknown };
  /**
   * Set when `previous` was signed by another key than `signingKey`: that old key, which signs the
   * hand-over `<version>.rotation.json` (key-rotation.ts) written with this version's exports.
   */
  rotation?: { previousVersion: string; oldPrivateJwk: JsonWebKey };
  /** The reputation attestations the AgentFacts credential carries (plugin/reputation), signed with it. */
  reputation?: ReputationAttestation[];
}

export interface PublishFile {
  /** Relative to the slug's registry folder. */
  name: string;
  text: string;
}

export type PublishDecision =
  | {
      kind: 'publish';
      slug: string;
      version: string;
      files: PublishFile[];
      entry: RegistryIndexEntry;
      snapshot: PublishFile;
    }
  | {
      kind: 'unchanged';
      slug: string;
      version: string;
      sha256: string;
      /** The signed exports this publication gives: an interrupted publish may have left some missing (write those only). */
      files: PublishFile[];
      /** Set when the index lacked the entry (an interrupted publish): record it. */
      entry?: RegistryIndexEntry;
    }
  | { kind: 'refused'; problems: string[] };

const COMMIT_SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function refused(...problems: string[]): PublishDecision {
  return { kind: 'refused', problems };
}

/** The published card of a definition: the compiler's card for the endpoint origin, signed. */
async function signedCard(
  resolved: ResolvedNode,
  origin: string,
  key: PublishInput['signingKey'],
  extension?: AgentExtension,
): Promise<AgentCard> {
  const { config } = runtimeConfigFor(resolved, resolved.key, { workspace: EMPTY_WORKSPACE_CONFIG });
  const card = buildAgentCard(config, { requestOrigin: origin });
  if (extension)
    card.capabilities = { ...card.capabilities, extensions: [...(card.capabilities.extensions ?? []), extension] };
  return signAgentCard(card, key.privateJwk, key.kid);
}

function registryChecks(definition: AgentDefinition, index: RegistryIndex): string[] {
  const { slug, versionSemver: version, id, versionId } = definition.identity;
  const problems: string[] = [];
  const sameSlug = index.snapshots.filter((e) => e.slug === slug && e.version !== version);
  const otherId = sameSlug.find((e) => e.id !== id);
  if (otherId)
    problems.push(
      `identity.id ${id} is not the id of the published versions of ${slug} (${otherId.version} has ${otherId.id}): a slug keeps one identity.id across all its versions`,
    );
  const reused = index.snapshots.find((e) => e.versionId === versionId && !(e.slug === slug && e.version === version));
  if (reused)
    problems.push(
      `identity.versionId ${versionId} is already used by ${reused.slug}@${reused.version}: every published version needs its own versionId`,
    );
  return problems;
}

/** Decides what publishing `input.resolved` means for the registry (see the header). */
export async function preparePublication(input: PublishInput): Promise<PublishDecision> {
  try {
    const definition = input.resolved.definition;
    const { slug, versionSemver: version } = definition.identity;
    if (!COMMIT_SHA.test(input.commitSha))
      return refused(`the commit "${input.commitSha.slice(0, 80)}" is not a full lower-case git commit id`);
    const provenance = definition.metadata.provenance;
    if (provenance === undefined || typeof provenance.repo !== 'string' || typeof provenance.filePath !== 'string') {
      return refused(
        'metadata.provenance (repo and filePath) is required at publish: say where the definition comes from',
      );
    }

    const problems = registryChecks(definition, input.index);
    if (input.previous !== undefined) {
      const bump = checkBump(
        input.previous.version,
        version,
        diffDefinitions(withoutPublishStamps(input.previous.definition), withoutPublishStamps(definition)),
      );
      if (!bump.ok) {
        const lines = bump.insufficient.map(
          (c) => `  ${c.bump} ${c.kind} ${c.pointer || '(root)'} (${c.in}): ${c.reason}`,
        );
        problems.push(
          [`${slug}@${version} against the published ${input.previous.version}: ${bump.problem}`, ...lines].join('\n'),
        );
      }
    }

    const endpoint = agentFactsEndpoint({ target: input.plan.target, ...input.endpoint });
    if (!endpoint.ok)
      problems.push(
        `${endpoint.failure.pointer.replace('#/options/', '--').replace('workerUrl', 'worker-url')}: ${endpoint.failure.message}`,
      );
    if (problems.length > 0) return refused(...problems);
    const origin = new URL((endpoint as { url: string }).url).origin;

    const card = await signedCard(input.resolved, origin, input.signingKey);
    const committed: AgentDefinition = {
      ...definition,
      metadata: { ...definition.metadata, provenance: { ...provenance, commitSha: input.commitSha } },
    };
    const oasf = projectOasfRecord(committed, {
      createdAt: input.publishedAt,
      serviceUrl: (endpoint as { url: string }).url,
      worker: targetFor(input.plan.target).endpoint === 'public-url',
      agentCard: JSON.parse(JSON.stringify(card)) as Record<string, unknown>,
    });
    if (!oasf.ok)
      return refused(
        ...oasf.findings.map(
          (f) =>
            `the OASF record cannot be made at ${f.path || '(root)'}: ${f.message}${f.suggestion !== undefined ? ` ${f.suggestion}` : ''}`,
        ),
      );
    const stamped: AgentDefinition = {
      ...committed,
      metadata: {
        ...committed.metadata,
        cardExports: { ...definition.metadata.cardExports, agentCard: card, oasf: oasf.record },
      },
    };
    const snapshotText = json(stamped);
    const names = publishedFileNames(version);
    const checked = validateDefinitionSource(snapshotText, `${slug}/${names.snapshot}`, 'json');
    const errors = checked.diagnostics.filter((d) => d.severity === 'error');
    if (errors.length > 0)
      return refused(
        ...errors.map((d) => `the snapshot to publish is not valid at ${d.path || '(root)'}: ${d.message}`),
      );

    const sha256 = snapshotSha256(new TextEncoder().encode(snapshotText));
    const entry: RegistryIndexEntry = {
      slug,
      version,
      id: definition.identity.id,
      versionId: definition.identity.versionId,
      sha256,
    };
    /** The old key's signed hand-over to the new one, when this version changes the signing key. */
    const rotationFile = async (): Promise<PublishFile | PublishDecision | undefined> => {
      if (input.rotation === undefined) return undefined;
      const publicOf = (jwk: JsonWebKey) => ({ kty: 'OKP', crv: 'Ed25519', x: jwk.x }) as JsonWebKey;
      const from = didKeyOf(publicOf(input.rotation.oldPrivateJwk));
      const to = didKeyOf(publicOf(input.signingKey.privateJwk));
      if (from === undefined || to === undefined)
        return refused('the key rotation cannot be recorded: a key is not an Ed25519 key');
      if (from === to) return undefined;
      const signed = await signKeyRotation(
        { slug, previousVersion: input.rotation.previousVersion, version, from, to },
        input.rotation.oldPrivateJwk,
        input.publishedAt,
      );
      if (!signed.ok) return refused(`the key rotation cannot be recorded: ${signed.message}`);
      return { name: names.rotation, text: json(signed.document) };
    };
    /** The signed card, AgentFacts credential and KYM registration of this publication (and its rotation record). */
    const exportFiles = async (): Promise<PublishFile[] | PublishDecision> => {
      const issued = await issueAgentFactsCredential(stamped, {
        target: input.plan.target,
        ...input.endpoint,
        issuedAt: input.publishedAt,
        privateJwk: input.signingKey.privateJwk,
        ...(input.reputation !== undefined ? { reputation: input.reputation } : {}),
      });
      if (!issued.ok)
        return refused(
          ...issued.failures.map(
            (f) => `the AgentFacts credential cannot be issued at ${f.pointer || '(root)'}: ${f.message}`,
          ),
        );
      const runtimeProfile: AgentExtension = {
        uri: RUNTIME_PROFILE_EXTENSION_URI,
        description: 'The runtimes the compile plan supports, the first preferred; the KYM registration of this card.',
        required: false,
        params: {
          kymRef: kymRef(slug, version),
          runtimeCapabilityClass: definition.runtimeRequirements.runtimeCapabilityClass,
          hosts: [...input.plan.runtime.hosts],
          target: input.plan.target,
          planDigest: input.plan.digest,
          snapshotSha256: sha256,
        },
      };
      const kym = await signedCard(input.resolved, origin, input.signingKey, runtimeProfile);
      const handOver = await rotationFile();
      if (handOver !== undefined && !('name' in handOver)) return handOver;
      return [
        { name: names.card, text: json(card) },
        { name: names.credential, text: json(issued.credential) },
        { name: names.kym, text: json(kym) },
        { name: names.oasf, text: json(oasf.record) },
        ...(handOver !== undefined ? [handOver] : []),
      ];
    };
    if (input.existingSnapshot !== undefined) {
      const stored = snapshotSha256(input.existingSnapshot);
      if (stored !== sha256) {
        const recorded = findIndexEntry(input.index, slug, version);
        const note =
          recorded !== undefined && recorded.sha256 !== stored
            ? ` (and the index records ${showDigest(recorded.sha256)}: the stored snapshot was edited)`
            : '';
        return refused(
          `${slug}@${version} is already published with other content: the registry holds ${showDigest(stored)}${note}, this would be ${showDigest(sha256)}; published versions are immutable: bump identity.versionSemver (and versionId)`,
        );
      }
      const recorded = findIndexEntry(input.index, slug, version);
      if (recorded !== undefined && recorded.sha256 !== sha256) {
        return refused(
          `${slug}@${version}: the index records ${showDigest(recorded.sha256)}, but the stored snapshot and this publication are ${showDigest(sha256)}; the index was edited`,
        );
      }
      // The exports this run would write: the shell writes those an interrupted publication left missing.
      const exported = await exportFiles();
      if (!Array.isArray(exported)) return exported;
      return {
        kind: 'unchanged',
        slug,
        version,
        sha256,
        files: exported,
        ...(recorded === undefined ? { entry } : {}),
      };
    }
    if (findIndexEntry(input.index, slug, version) !== undefined) {
      return refused(
        `${slug}@${version} is recorded in the index but its snapshot is missing from the registry: restore it from version control rather than publishing again`,
      );
    }
    const files = await exportFiles();
    if (!Array.isArray(files)) return files;
    return { kind: 'publish', slug, version, files, entry, snapshot: { name: names.snapshot, text: snapshotText } };
  } catch (error) {
    return refused(`publishing failed: ${(error as Error).message}`);
  }
}

/** The highest version in `versions` below `version` (semver order), if any. */
export function previousVersion(versions: readonly string[], version: string): string | undefined {
  return [...versions]
    .filter((v) => compareSemver(v, version) < 0)
    .sort(compareSemver)
    .pop();
}
