// @ts-nocheck
/** Fixture: an adapter importing compiler core, the runtime and its own folder. */
import { x } from '../../x';
import { r } from '../../../runtime/r';
import { hb3 } from './x';
export const hb3Emit = [x, r, hb3];
