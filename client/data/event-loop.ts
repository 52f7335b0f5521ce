/**
 * Gives the event loop a turn: what is queued (a frame, a key, an IndexedDB answer) runs before
 * the caller goes on. A message, which background tabs do not slow down as they do timers.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
