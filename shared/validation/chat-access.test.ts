import { describe, expect, it } from 'vitest';
import { conversationIdFor } from '../ids';
import { canReadConversation, checkConversationStart } from './chat-access';

const ALICE = 'alice-0001';
const BOB = 'bob-000002';
const CAROL = 'carol-0003';

describe('docs/product.md §5 Chat access: starting a conversation', () => {
  it.each<[string, Parameters<typeof checkConversationStart>[0], ReturnType<typeof checkConversationStart>]>([
    ['linked by an application: allowed', { actorId: ALICE, otherId: BOB, linkedByApplication: true }, { ok: true }],
    [
      "§8 logged out: 'Please log in to start a conversation'",
      { actorId: null, otherId: BOB, linkedByApplication: true },
      { ok: false, error: 'Please log in to start a conversation' },
    ],
    [
      "'A user cannot converse with themselves': 'You cannot converse with yourself'",
      { actorId: ALICE, otherId: ALICE, linkedByApplication: true },
      { ok: false, error: 'You cannot converse with yourself' },
    ],
    [
      "'only if an application links the two users. Otherwise the user is redirected to /applications.'",
      { actorId: ALICE, otherId: BOB, linkedByApplication: false },
      { ok: false, redirectTo: '/applications' },
    ],
    [
      '[decision] no other user named: redirected too',
      { actorId: ALICE, otherId: '', linkedByApplication: true },
      { ok: false, redirectTo: '/applications' },
    ],
    [
      '[decision] with oneself is refused even when unlinked',
      { actorId: ALICE, otherId: ALICE, linkedByApplication: false },
      { ok: false, error: 'You cannot converse with yourself' },
    ],
  ])('%s', (_rule, input, result) => {
    expect(checkConversationStart(input)).toEqual(result);
  });
});

describe("docs/product.md §5 Chat access: 'Only the participants of a conversation may read it.'", () => {
  const id = conversationIdFor(BOB, ALICE);
  it.each<[string, string | null, string, boolean]>([
    ['the first participant', ALICE, id, true],
    ['the second participant', BOB, id, true],
    ['a third user', CAROL, id, false],
    ['a logged-out visitor', null, id, false],
    ['a participant, but the id is not sorted (not a valid conversation id)', ALICE, `${BOB}_${ALICE}`, false],
    ['a malformed id', ALICE, ALICE, false],
    ['an id naming the same user twice', ALICE, `${ALICE}_${ALICE}`, false],
  ])('%s → %s', (_case, actor, conversationId, ok) => {
    expect(canReadConversation(actor, conversationId)).toBe(ok);
  });
});
