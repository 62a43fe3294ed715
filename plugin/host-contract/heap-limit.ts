/** The heap limit of a compiled Node host's processes, shared by the emitted specs and the host that spawns them. */

/** Node's old-space limit for a process allowed `memoryMb`: three quarters, at least 64 MB. */
export function heapLimitMb(memoryMb: number): number {
  return Math.max(64, Math.floor(memoryMb * 0.75));
}
