// @ts-nocheck
/** Fixture: test support is not production code; never reported. */
import { h } from '../../hosts/node/h';
export const s = h;
