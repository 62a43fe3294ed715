// @ts-nocheck
/** Fixture: a shell may import every layer but a target's internals: the table is its way in. */
import { compile } from '../compiler/compile';
import { g } from '../graph/g';
import { h } from '../hosts/node/h';
import { TARGETS } from '../targets/targets';
export const main = [compile, g, h, TARGETS];
