// @ts-nocheck
/** Fixture: the runtime importing only itself. */
export const r = 1;
export type R = number;
