// @ts-nocheck
/** Fixture: the definition layer importing graph code and a shell. */
import { parse } from 'yaml';
import type { g } from '../graph/g';
import { main } from '../cli/main';
export const d: unknown[] = [parse, main];
export type G = typeof g;
