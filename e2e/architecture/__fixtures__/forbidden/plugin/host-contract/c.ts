// @ts-nocheck
/** Fixture: the host contract importing a Node built-in; runtime types are fine. */
import type { R } from '../runtime/r';
import { join } from 'node:path';
export const c: [R, unknown] = [1, join];
