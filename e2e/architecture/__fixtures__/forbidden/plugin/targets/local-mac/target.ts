// @ts-nocheck
/** Fixture: a descriptor loading its emitter lazily. */
export const localMacTarget = { id: 'local-mac', adapter: () => require('./emit').localMacEmit };
