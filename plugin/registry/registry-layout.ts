/**
 * The names of the files in a folder registry, and nothing else: this file imports nothing, so
 * graph inference (which may import no other file of the registry) can name the index as an input.
 *
 * ```
 * <registryRoot>/index.json                         the index (registry-index.ts)
 * <registryRoot>/.index.json.lock                   the write lock (registry-lock.ts)
 * <registryRoot>/<slug>/<version>.json              the snapshot
 * <registryRoot>/<slug>/<version>.card.json         its signed A2A card
 * <registryRoot>/<slug>/<version>.agentfacts.vc.json its AgentFacts credential
 * <registryRoot>/<slug>/<version>.kym.json          its signed KYM registration
 * <registryRoot>/<slug>/<version>.oasf.json         its OASF record (definition/oasf/oasf-record.ts)
 * <registryRoot>/<slug>/<version>.rotation.json     only where the signing key changed from the
 *                                                   previous version: the old key's signed
 *                                                   hand-over to the new one (trust/key-rotation.ts)
 * ```
 *
 * The snapshot's path (`registrySnapshotPath`, `registrySlugPath`, `registrySnapshotVersion`) is
 * in plugin/definition/workspace-definitions.ts: the definition layer lists a registry's versions
 * itself (known-versions.ts), and it imports nothing above it.
 */

/** The registry index's file name in `<registryRoot>`. */
export const REGISTRY_INDEX_FILE = 'index.json';

/** The registry's write lock's file name in `<registryRoot>`. */
export const REGISTRY_LOCK_FILE = '.index.json.lock';

/** The file names of one published version, relative to the slug's folder. */
export function publishedFileNames(version: string): {
  snapshot: string;
  card: string;
  credential: string;
  kym: string;
  rotation: string;
  oasf: string;
} {
  return {
    snapshot: `${version}.json`,
    card: `${version}.card.json`,
    credential: `${version}.agentfacts.vc.json`,
    kym: `${version}.kym.json`,
    rotation: `${version}.rotation.json`,
    oasf: `${version}.oasf.json`,
  };
}
