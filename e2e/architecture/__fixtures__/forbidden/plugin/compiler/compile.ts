// @ts-nocheck
/** Fixture: compiler core importing host code that spawns processes, and esbuild eagerly. */
import type { Adapter } from '../targets/targets';
import { spawnHost } from '../hosts/node/h';
import type { R } from '../runtime/r';
import { build } from 'esbuild';
import { d } from '../definition/d';
export const lazy = async (): Promise<Adapter> => (await import('../targets/targets')).TARGETS[0];
export const compile = (): [unknown, R, unknown, unknown] => [spawnHost, build, d, (await import('ts-morph')).Project];
