/**
 * `promise`, or a rejection with what `onTimeout` returns once `ms` have passed without it; the
 * timer is cleared either way. The promise itself is not stopped: the caller aborts what it began
 * (from `onTimeout`), and a race rather than an abort alone holds even where an abort settles
 * nothing (a connection that died, Node's fetch after nodejs/undici#4089).
 */
export async function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
