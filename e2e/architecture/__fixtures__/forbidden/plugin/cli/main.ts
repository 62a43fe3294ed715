// @ts-nocheck
/** Fixture: a shell may import every layer. */
import { compile } from '../compiler/compile';
import { g } from '../graph/g';
import { h } from '../hosts/node/h';
import { adapters } from '../compiler/adapters/index';
export const main = [compile, g, h, adapters];
