// @ts-nocheck
/** Fixture: an adapter importing a sibling adapter's folder and the node host. */
import { hb3 } from '../hb3/x';
import { h } from '../../../hosts/node/h';
export const localMacEmit = [hb3, h];
