// @ts-nocheck
/** Fixture: a target's emitter importing a sibling target's folder and a shell. */
import { hb3 } from '../hb3/x';
import { main } from '../../cli/main';
export const localMacEmit = [hb3, main];
