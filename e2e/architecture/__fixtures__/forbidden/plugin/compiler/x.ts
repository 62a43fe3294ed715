// @ts-nocheck
/** Fixture: compiler core, imports nothing. */
export const x = 1;
