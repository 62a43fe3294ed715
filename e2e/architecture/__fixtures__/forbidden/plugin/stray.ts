// @ts-nocheck
/** Fixture: a file no layer claims. */
export const stray = 1;
