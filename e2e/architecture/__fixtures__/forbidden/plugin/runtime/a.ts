// @ts-nocheck
/** Fixture: the runtime reaching up into the compiler, and into a Node built-in. */
// import { x } from '../compiler/x'; (a comment is no import)
import { r } from './r';
import { x } from '../compiler/x';
import { readFileSync } from 'node:fs';
export const a = [r, x, readFileSync];
