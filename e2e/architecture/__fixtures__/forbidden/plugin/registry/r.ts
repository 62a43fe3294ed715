// @ts-nocheck
/** Fixture: the registry reaching up into the compiler and a shell, and loading esbuild. */
import { x } from '../compiler/x';
import { main } from '../cli/main';
import { build } from 'esbuild';
import { d } from '../definition/d';
export const r = [x, main, build, d];
