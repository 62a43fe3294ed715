// @ts-nocheck
/** Fixture: a descriptor loading its emitter eagerly (only a lazy require or import() is allowed). */
import { hb3Emit } from './emit';
export const hb3Target = { id: 'hb3', adapter: () => hb3Emit };
