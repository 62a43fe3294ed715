/**
 * What `agentdef publish` stamps into a definition (`metadata.provenance.commitSha`, the
 * `metadata.cardExports`): both change with every publication, so comparing a workspace definition
 * with its published snapshot (the version-bump policy, the deploy gate's "published at this
 * digest") compares them without these. Pure.
 */
/** A definition without what publishing stamps (the commit, the card exports). */
export function withoutPublishStamps(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  const metadata = record['metadata'];
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) return value;
  const { cardExports: _cardExports, ...rest } = metadata as Record<string, unknown>;
  const provenance = rest['provenance'];
  if (provenance !== null && typeof provenance === 'object' && !Array.isArray(provenance)) {
    const { commitSha: _commitSha, ...where } = provenance as Record<string, unknown>;
    rest['provenance'] = where;
  }
  return { ...record, metadata: rest };
}
