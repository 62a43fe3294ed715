// @ts-nocheck
/** Fixture: compiler core importing host code that spawns processes, and esbuild eagerly. */
import type { Adapter } from './adapters/index';
import { spawnHost } from '../hosts/node/h';
import type { R } from '../runtime/r';
import { build } from 'esbuild';
import { d } from '../definition/d';
export const lazy = async (): Promise<Adapter> => (await import('./adapters/index')).adapters[0];
export const compile = (): [unknown, R, unknown, unknown] => [spawnHost, build, d, (await import('ts-morph')).Project];
