// @ts-nocheck
/** Fixture: test support; never reported. */
import { h } from '../hosts/node/h';
export const s = h;
