// @ts-nocheck
/** Fixture: graph inference may name the registry's files, but not load its reads. */
import { REGISTRY_INDEX_FILE } from '../registry/registry-layout';
import { r } from '../registry/r';
export const inputs = [REGISTRY_INDEX_FILE, r];
