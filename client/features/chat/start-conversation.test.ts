import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { conversationIdFor } from '../../../shared/ids';
import type { DataContextValue } from '../../data/data-provider';
import { INITIAL_STATUS, type SyncStatus } from '../../data/sync-status';
import { startConversation } from './start-conversation';

const ME = 'u_ada';
const BEN = 'u_ben';
const application = {
  id: 'a1',
  gigId: 'g1',
  gigTitle: 'Poster lettering',
  creatorId: ME,
  applicantId: BEN,
  appliedAt: 1,
  gigDeleted: false,
};
const bens = { id: conversationIdFor(ME, BEN), participants: [ME, BEN].sort() };

/** A device in its first sync: the status the test publishes, and the reads and writes the start makes. */
function newDevice(firstPassed: string[]) {
  const status$ = new Subject<SyncStatus>();
  const under = (passed: string[]): SyncStatus => ({
    ...INITIAL_STATUS,
    initialSync: { done: false, received: 1 },
    firstPassed: passed,
  });
  const calls: string[] = [];
  const stored = { applications: [application], conversations: [] as unknown[] };
  const sync = { status: under(firstPassed), status$ };
  const data = {
    userId: ME,
    sync,
    local: {
      find: async (name: 'applications') => (calls.push(`find ${name}`), stored[name]),
      get: async (name: 'conversations', id: string) => (
        calls.push(`get ${name}`),
        stored[name].find((c) => (c as { id: string }).id === id) ?? null
      ),
      insert: async (name: string) => void calls.push(`insert ${name}`),
    },
  } as unknown as DataContextValue;
  const pass = (passed: string[]) => {
    sync.status = under(passed);
    status$.next(sync.status);
  };
  return { data, calls, stored, pass };
}

describe('Converse on a new device', () => {
  it("reads nothing until the applications' and conversations' first passes are in, then opens the conversation already there", async () => {
    const device = newDevice(['applications', 'users']);
    let result: unknown;
    const started = startConversation(device.data, BEN, 'g1').then((r) => (result = r));
    await new Promise((resolve) => setTimeout(resolve, 0));
    device.pass(['applications', 'users', 'notifications']);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(device.calls).toEqual([]);
    expect(result).toBeUndefined();

    // Ben's record comes with the conversations' first pass: it is opened, not written again.
    device.stored.conversations.push(bens);
    device.pass(['applications', 'users', 'notifications', 'conversations']);
    await started;
    expect(device.calls).toEqual(['find applications', 'get conversations']);
    expect(result).toEqual({ ok: true, path: `/exchange/${BEN}?gig=g1` });
  });

  it('writes a new record at once on a device past its first sync', async () => {
    const device = newDevice([]);
    const done = {
      ...device.data,
      sync: { status: { ...INITIAL_STATUS, initialSync: { done: true, received: 3 } }, status$: new Subject() },
    };
    await expect(startConversation(done as unknown as DataContextValue, BEN, 'g1')).resolves.toMatchObject({
      ok: true,
    });
    expect(device.calls).toEqual(['find applications', 'get conversations', 'insert conversations']);
  });
});
