// @ts-nocheck
/** Fixture: fixtures are not production code; never reported. */
import { h } from '../../hosts/node/h';
export const f = h;
