// @ts-nocheck
/** Fixture: a shell reaching into a target's internals instead of through the table. */
import { hb3Emit } from '../targets/hb3/emit';
export const serve = hb3Emit;
