// @ts-nocheck
/** Fixture: the adapter registry may import every adapter folder. */
import { hb3Emit } from './hb3/emit';
import { localMacEmit } from './local-mac/emit';
export type Adapter = unknown;
export const adapters: Adapter[] = [hb3Emit, localMacEmit];
