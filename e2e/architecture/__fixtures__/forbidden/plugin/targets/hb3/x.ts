// @ts-nocheck
/** Fixture: an hb3 helper. */
export const hb3 = 1;
