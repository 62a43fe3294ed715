/** The heap limit of a compiled Node host's processes, shared by the emitted specs and the host that spawns them, and what it bounds. */

/** Node's old-space limit for a process allowed `memoryMb`: three quarters, at least 64 MB. */
export function heapLimitMb(memoryMb: number): number {
  return Math.max(64, Math.floor(memoryMb * 0.75));
}

/**
 * How many JSON-RPC requests a host with a heap of `heapMb` reads or runs at once: one per 12 MB
 * (a request at the 1 MiB body limit held as text, parsed, in the model request and in the task
 * store, with room to spare), at least 2 and at most 16. The 96 MB heap of a 128 MB container: 8.
 */
export function concurrentRunsFor(heapMb: number): number {
  return Math.max(2, Math.min(16, Math.floor(heapMb / 12)));
}
