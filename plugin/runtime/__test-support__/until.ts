/** Polls `read` until `done` holds for its value (returned), for up to `timeoutMs`; then fails naming `what`. */
export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what = 'the condition',
  timeoutMs = 120_000,
  everyMs = 10,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what} was not reached in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
