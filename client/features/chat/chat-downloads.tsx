import { useEffect, useMemo, useRef } from 'react';
import { useData, useSyncStatusValue } from '../../data/data-provider';
import { useConversations } from '../../data/queries';
import type { ChatDownloader } from './background-download';
import { needsDownload } from '../../data/chat-history';

/** How many of the user's conversations, most recent first, are kept on the device for offline reading. */
export const RECENT_CONVERSATIONS = 20;

/**
 * Keeps the user's recent conversations on this device: once online and the first sync is done,
 * the ones with messages this device has not stored are downloaded in the background, a few at a
 * time. Renders nothing. The code that does it comes with the chat screen's chunk (Yjs and its
 * providers), loaded only when there is something to fetch, so the shell itself carries no Yjs.
 */
export function ChatDownloads() {
  const { userId } = useData();
  // One tab downloads for the device: the one that replicates (the others share its IndexedDB).
  const online = useSyncStatusValue(
    (s) => s.network === 'online' && !s.workingOffline && s.initialSync.done && s.leader,
  );
  const conversations = useConversations();
  const wanted = useMemo(
    () =>
      (conversations.data ?? [])
        .filter((c) => c.lastMessageTimestamp !== null)
        .sort((a, b) => b.lastMessageTimestamp! - a.lastMessageTimestamp!)
        .slice(0, RECENT_CONVERSATIONS)
        .filter((c) => needsDownload(userId, c))
        .map((c) => c.id),
    [conversations.data, userId],
  );
  const key = wanted.join(' ');
  const downloader = useRef<ChatDownloader | null>(null);
  const latest = useRef(wanted);
  latest.current = wanted;

  const needed = online && wanted.length > 0;
  useEffect(() => {
    if (!needed) return;
    let cancelled = false;
    void import('./exchange-page').then(
      ({ ChatDownloader }) => {
        if (cancelled) return;
        downloader.current = new ChatDownloader(userId);
        downloader.current.want(latest.current);
      },
      () => undefined, // the chunk could not load (offline again): the next pass tries
    );
    return () => {
      cancelled = true;
      downloader.current?.stop();
      downloader.current = null;
    };
  }, [needed, userId]);

  // The list changes only when its rooms do (`key`); the latest list is in `latest`.
  useEffect(() => {
    downloader.current?.want(latest.current);
  }, [key]);

  return null;
}
