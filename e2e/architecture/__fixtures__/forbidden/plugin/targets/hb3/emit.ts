// @ts-nocheck
/** Fixture: a target's emitter importing compiler core, the runtime, the node host and its own folder. */
import { x } from '../../compiler/x';
import { r } from '../../runtime/r';
import { h } from '../../hosts/node/h';
import { hb3 } from './x';
export const hb3Emit = [x, r, h, hb3];
