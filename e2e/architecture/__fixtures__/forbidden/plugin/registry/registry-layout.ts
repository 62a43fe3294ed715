// @ts-nocheck
/** Fixture: the registry's file names loading a Node built-in and the rest of the registry. */
import { posix } from 'node:path';
import { r } from './r';
export const REGISTRY_INDEX_FILE = posix.join('.', 'index.json', String(r));
