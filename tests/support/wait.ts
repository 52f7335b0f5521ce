/**
 * Polls until `check` returns a truthy value and returns it, or fails after `timeoutMs` naming
 * `what`: for state reached asynchronously (replication, a socket, another process). `check` may
 * throw to fail at once.
 */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for: ${what}`);
    await new Promise((r) => setTimeout(r, 15));
  }
}
