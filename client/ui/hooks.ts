import { useEffect, useState } from 'react';
import type { Outbox } from '../data/outbox';

/** Re-renders when the set of local changes waiting to go out changes, and answers "is this one waiting?". */
export function useOutbox(outbox: Outbox): (collection: string, id: string) => boolean {
  const [, setVersion] = useState(0);
  useEffect(() => outbox.subscribe(() => setVersion((v) => v + 1)), [outbox]);
  return (collection, id) => outbox.has(collection, id);
}

/** The browser's own idea of being online, live. Actions that need the server check it first. */
export function useOnline(): boolean {
  const [online, setOnline] = useState(() => (typeof navigator === 'undefined' ? true : navigator.onLine));
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, []);
  return online;
}

/** The current time, refreshed every `everyMs`, for labels such as the 24-hour "new" badge. */
export function useNow(everyMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
