// @ts-nocheck
/** Fixture: the target table may import every target's descriptor. */
import { hb3Target } from './hb3/target';
import { localMacTarget } from './local-mac/target';
export type Adapter = unknown;
export const TARGETS = [hb3Target, localMacTarget];
