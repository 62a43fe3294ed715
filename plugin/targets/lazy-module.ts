/**
 * Loads a target's part (its emitter, server, runner or deploy) on first use, the same way in the
 * three places agentdef's code runs: the built package (CommonJS, `require` finds the `.js` file), a
 * source checkout through @swc-node/register (`require` with its TypeScript hook; an `import()` of
 * the `.js` name finds no file there) and Vitest (no TypeScript hook for `require`, but `import()`
 * of the `.js` name resolves to the source). `require` first; when it finds no such module,
 * `import()`. Any other failure (the module threw while loading) is the caller's.
 */
export async function loadLazily<T>(viaRequire: () => T, viaImport: () => Promise<T>): Promise<T> {
  try {
    return viaRequire();
  } catch (error) {
    if ((error as { code?: unknown })?.code !== 'MODULE_NOT_FOUND') throw error;
    return viaImport();
  }
}
