// @ts-nocheck
/** Fixture: the target's own folder spells its id. */
export const hb3 = 'hb3';
