/**
 * How much of a composed child's receipt a parent is credited with (docs/decisions/0010-reputation-decay.md):
 * a receipt of a child `n` composition layers below an agent counts `COMPOSITION_LAYER_DECAY ** n`
 * of one of the agent's own receipts. So a wrapper around a good leaf lifts by at most half of
 * what the leaf earns, its own parent by a quarter, and three layers up by an eighth; past
 * `MAX_ATTRIBUTION_LAYERS` nothing is credited (the weight would be below 1/256 anyway).
 */

/** The factor per composition layer: a parent one layer up gets half of a child's receipt. */
export const COMPOSITION_LAYER_DECAY = 0.5;

/** No ancestor more than this many layers above the child that ran is credited. */
export const MAX_ATTRIBUTION_LAYERS = 8;

/** The weight a receipt carries for an ancestor `layers` composition layers above the agent that signed it. */
export function attributionWeight(layers: number, decay: number = COMPOSITION_LAYER_DECAY): number {
  if (!Number.isInteger(layers) || layers < 0 || layers > MAX_ATTRIBUTION_LAYERS) return 0;
  return decay ** layers;
}
