// @ts-nocheck
/** Fixture: graph inference loading esbuild and the compiler; type-only @nx/devkit is fine. */
import type { Tree } from '@nx/devkit';
import { build } from 'esbuild';
import { x } from '../compiler/x';
import { d } from '../definition/d';
export const g = (tree: Tree): unknown[] => [tree, build, x, d];
export function later(): unknown {
  return require('ts-morph');
}
