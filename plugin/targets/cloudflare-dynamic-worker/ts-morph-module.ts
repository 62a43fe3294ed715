/**
 * ts-morph (and the TypeScript compiler it bundles), loaded on first use: only emitting a Worker
 * needs it, so `validate`, `plan` and the other targets never pay for loading it.
 */
import type * as TsMorph from 'ts-morph';

let loaded: typeof TsMorph | undefined;

export function tsMorph(): typeof TsMorph {
  loaded ??= require('ts-morph') as typeof TsMorph;
  return loaded;
}
