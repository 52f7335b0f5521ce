import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { needsDownload, syncedStamp, syncedStampKey } from './chat-history';

describe('which conversations a device still has to download', () => {
  const stored = new Map<string, string>();
  beforeEach(() => {
    globalThis.localStorage = {
      getItem: (k: string) => stored.get(k) ?? null,
      setItem: (k: string, v: string) => void stored.set(k, v),
    } as Storage;
  });
  afterEach(() => {
    stored.clear();
    delete (globalThis as { localStorage?: Storage }).localStorage;
  });

  it('a conversation without messages needs nothing', () => {
    expect(needsDownload('me-0001', { id: 'room', lastMessageTimestamp: null })).toBe(false);
  });

  it('a conversation with messages that never synced here needs a download', () => {
    expect(syncedStamp('me-0001', 'room')).toBeNull();
    expect(needsDownload('me-0001', { id: 'room', lastMessageTimestamp: 1_000 })).toBe(true);
  });

  it('a room synced up to its last message needs nothing; a newer message makes it needed again', () => {
    stored.set(syncedStampKey('me-0001', 'room'), '1000');
    expect(needsDownload('me-0001', { id: 'room', lastMessageTimestamp: 1_000 })).toBe(false);
    expect(needsDownload('me-0001', { id: 'room', lastMessageTimestamp: 1_001 })).toBe(true);
  });

  it('is per user: another account on the same device has its own', () => {
    stored.set(syncedStampKey('me-0001', 'room'), '1000');
    expect(needsDownload('you-0002', { id: 'room', lastMessageTimestamp: 1_000 })).toBe(true);
  });
});
