/**
 * The portable subset (docs/decisions/0007-portable-subset.md): what a runtime file may use
 * besides ECMAScript itself. A file under plugin/runtime (bundled into Workers, HB3 entrypoints and
 * local launchers) may name, as a global, only what the WinterTC Minimum Common Web Platform API
 * lists (https://min-common-api.proposal.wintertc.org/); of `performance` and `navigator` only the
 * members it lists. plugin/runtime/portability.test.ts type-checks every runtime file and fails on
 * any other host global; plugin/runtime/README.md prints these lists, and the same test compares.
 * This file is data only: nothing in the runtime imports it.
 */

/** The Minimum Common API's interfaces (its "Interfaces" index; WebAssembly's as one namespace). */
export const PORTABLE_INTERFACES: readonly string[] = [
  'AbortController',
  'AbortSignal',
  'Blob',
  'ByteLengthQueuingStrategy',
  'CompressionStream',
  'CountQueuingStrategy',
  'Crypto',
  'CryptoKey',
  'CustomEvent',
  'DecompressionStream',
  'DOMException',
  'Event',
  'EventTarget',
  'File',
  'FormData',
  'Headers',
  'ReadableByteStreamController',
  'ReadableStream',
  'ReadableStreamBYOBReader',
  'ReadableStreamBYOBRequest',
  'ReadableStreamDefaultController',
  'ReadableStreamDefaultReader',
  'Request',
  'Response',
  'SubtleCrypto',
  'TextDecoder',
  'TextDecoderStream',
  'TextEncoder',
  'TextEncoderStream',
  'TransformStream',
  'TransformStreamDefaultController',
  'URL',
  'URLPattern',
  'URLSearchParams',
  'WebAssembly',
  'WritableStream',
  'WritableStreamDefaultController',
  'WritableStreamDefaultWriter',
];

/** Its global methods and properties. */
export const PORTABLE_GLOBAL_FUNCTIONS: readonly string[] = [
  'globalThis',
  'atob',
  'btoa',
  'console',
  'crypto',
  'fetch',
  'navigator',
  'performance',
  'queueMicrotask',
  'reportError',
  'self',
  'setTimeout',
  'clearTimeout',
  'setInterval',
  'clearInterval',
  'structuredClone',
];

/** The globals of which only some members are in the subset. */
export const PORTABLE_GLOBAL_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  navigator: ['userAgent'],
  performance: ['now', 'timeOrigin'],
};

/** Every global name a runtime file may use besides ECMAScript's own. */
export const PORTABLE_GLOBALS: readonly string[] = [...PORTABLE_INTERFACES, ...PORTABLE_GLOBAL_FUNCTIONS];
