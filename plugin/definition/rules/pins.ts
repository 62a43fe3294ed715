/**
 * Model pins name one exact, servable model: a known provider (or `custom:<name>`), an exact
 * version, a checkpoint exactly when the tier is tuned, and a local provider exactly when the
 * tier is local.
 */
import type { Finding } from '../diagnostic';
import type { SemanticRule } from './rule';

const RULE = 'pins';

export const KNOWN_PROVIDERS: readonly string[] = [
  'openai',
  'anthropic',
  'google',
  'mistral',
  'cohere',
  'groq',
  'workers-ai',
  'azure-openai',
  'bedrock',
  'local-ollama',
];

const CUSTOM_PREFIX = 'custom:';

export function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The known provider closest to `id`, when it is a plausible typo (distance at most 3). */
export function closestProvider(id: string): string | undefined {
  let best: { id: string; distance: number } | undefined;
  for (const known of KNOWN_PROVIDERS) {
    const distance = levenshtein(id, known);
    if (best === undefined || distance < best.distance) best = { id: known, distance };
  }
  return best !== undefined && best.distance <= Math.min(3, Math.max(1, Math.floor(best.id.length / 2)))
    ? best.id
    : undefined;
}

/** Why a model version is not one exact version, or undefined when it is. */
export function floatingVersionReason(version: string): string | undefined {
  const v = version.trim();
  if (/^(?:latest|stable|newest|current)$/i.test(v) || /[:@/-]latest$/i.test(v)) return 'a moving tag';
  if (v.includes('*')) return 'a wildcard';
  if (/^[\^~<>=]/.test(v) || v.includes('||') || /\s-\s/.test(v)) return 'a version range';
  if (/(?:^|\.)[xX](?:\.|$)/.test(v)) return 'a wildcard';
  return undefined;
}

export const pinsRule: SemanticRule = {
  name: RULE,
  description:
    'Each model pin names a known provider or custom:<name>, an exact modelVersion, a checkpointId exactly when tier is "tuned", and a local provider exactly when tier is "local".',
  check(definition) {
    const findings: Finding[] = [];
    definition.modelSet.forEach((pin, index) => {
      const base = `/modelSet/${index}`;
      const label = `modelSet[${index}] ("${pin.modelId}", ${pin.role})`;
      const isCustom = pin.providerId.startsWith(CUSTOM_PREFIX);
      const isKnown = KNOWN_PROVIDERS.includes(pin.providerId);
      const isLocalProvider = pin.providerId === 'local-ollama';

      if (pin.tier === 'tuned' && pin.checkpointId === undefined) {
        findings.push({
          rule: RULE,
          path: `${base}/checkpointId`,
          message: `${label} has tier "tuned" but no checkpointId: a tuned specialist must pin the exact fine-tune checkpoint it loads.`,
          suggestion: `Add modelSet[${index}].checkpointId, e.g. "ckpt:team/${pin.modelId}/2026-01-01".`,
        });
      }
      if (pin.checkpointId !== undefined && pin.tier !== 'tuned') {
        findings.push({
          rule: RULE,
          path: `${base}/checkpointId`,
          at: 'key',
          message: `${label} sets checkpointId but its tier is ${pin.tier === undefined ? 'not set' : `"${pin.tier}"`}: only tuned models load a checkpoint.`,
          suggestion: `Set modelSet[${index}].tier to "tuned", or remove checkpointId.`,
        });
      }

      if (!isKnown && !isCustom) {
        const closest = closestProvider(pin.providerId);
        findings.push({
          rule: RULE,
          path: `${base}/providerId`,
          message: `${label} names an unknown providerId "${pin.providerId}".`,
          suggestion:
            closest !== undefined
              ? `Did you mean "${closest}"? Otherwise use a known provider (${KNOWN_PROVIDERS.join(', ')}) or "custom:<name>".`
              : `Use a known provider (${KNOWN_PROVIDERS.join(', ')}) or "custom:${pin.providerId}" for a self-hosted endpoint.`,
        });
      }

      const floating = floatingVersionReason(pin.modelVersion);
      if (floating !== undefined) {
        findings.push({
          rule: RULE,
          path: `${base}/modelVersion`,
          message: `${label} modelVersion "${pin.modelVersion}" is ${floating}, not one exact version: experiments and receipts key on the exact model.`,
          suggestion: `Pin modelVersion to the provider's exact snapshot (for example a dated version such as "2025-08-07").`,
        });
      }

      if (pin.tier === 'local' && !isLocalProvider && !isCustom) {
        findings.push({
          rule: RULE,
          path: `${base}/tier`,
          message: `${label} has tier "local" but providerId "${pin.providerId}" is a remote provider: a local model runs on the machine.`,
          suggestion:
            'Use providerId "local-ollama" (or "custom:<name>" for another local server), or choose the tier the remote model belongs to ("frontier" or "small").',
        });
      }
      if (isLocalProvider && pin.tier !== undefined && pin.tier !== 'local') {
        findings.push({
          rule: RULE,
          path: `${base}/tier`,
          message: `${label} uses providerId "local-ollama" but has tier "${pin.tier}": models served by local Ollama run on the machine.`,
          suggestion: `Set modelSet[${index}].tier to "local" (or leave it out).`,
        });
      }
    });
    return findings;
  },
};
