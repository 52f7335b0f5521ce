import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useParams, useSearchParams } from 'react-router-dom';
import { conversationIdFor } from '../../../shared/ids';
import { CHAT_MESSAGES, NO_LINK_NOTICES } from '../../../shared/validation/chat-access';
import { checkMessage } from '../../../shared/validation/message';
import { useData, useSyncStatusValue } from '../../data/data-provider';
import { chatDraftKey } from '../../data/device-storage';
import { useApplicationsWith, useConversation, useMe, useUnreadNotifications, useUser } from '../../data/queries';
import { linkedGigs, subjectChanges, writingAbout } from './chat-gigs';
import { RoomConnection, type RoomState } from './room-connection';
import { LinkedGigsList } from './linked-gigs-list';
import { MessageList } from './message-list';
import { PATHS } from '../../../shared/routes';
import { ProfileLink } from '../reviews';

/**
 * The background download of recent conversations runs from this screen's chunk, which holds Yjs
 * and its providers anyway: the signed-in shell loads it only once there is something to fetch.
 */
export { ChatDownloader } from './background-download';
export { sendWaitingMessages, waitingMessages } from './waiting-messages';

const SEND_FAILED = 'Failed to send message. Please try again.';
/** The conversation has messages (its record says so) but none was ever stored on this device. */
const NOT_DOWNLOADED =
  "This conversation hasn't been downloaded to this device yet. It will appear when you're back online.";

/**
 * `/exchange/{userId}` (docs/product.md §2 "Chat"): the conversation with that user, live and in ascending
 * time order, with presence and typing; history and sending work offline; the draft survives a
 * reload; opening it as the receiver marks it read (and its message notification). The header
 * lists every gig linking the two; `?gig={gigId}` (from a Converse button) is the gig new messages
 * are written from, and the list marks where the subject changes.
 */
export default function ExchangePage() {
  const { userId: otherId = '' } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const data = useData();
  const { local, userId, workOffline } = data;
  const roomId = conversationIdFor(userId, otherId);
  const me = useMe();
  const other = useUser(otherId);
  const conversation = useConversation(roomId);
  const linking = useApplicationsWith(otherId);
  const myName = me.data?.name ?? 'You';
  const otherProfile = other.data ?? undefined;
  const conv = conversation.data ?? undefined;
  const online = useSyncStatusValue((s) => s.network === 'online');
  const firstSyncDone = useSyncStatusValue((s) => s.initialSync.done);
  const allowed = otherId !== userId && ((linking.data?.length ?? 0) > 0 || Boolean(conv));

  const [room, setRoom] = useState<RoomConnection | null>(null);
  const [state, setState] = useState<RoomState | null>(null);
  const [draft, setDraft] = useState(() => localStorage.getItem(chatDraftKey(userId, roomId)) ?? '');
  const [error, setError] = useState<string | null>(null);
  const endRef = useRef<HTMLDivElement>(null);
  // The name is only the room's presence label: a rename does not reopen the room.
  const nameForRoom = useRef(myName);
  nameForRoom.current = myName;

  useEffect(() => {
    if (!allowed || me.loading) return;
    const r = new RoomConnection(roomId, { id: userId, name: nameForRoom.current }, otherId, workOffline);
    setRoom(r);
    setState(r.current);
    const off = r.subscribe(setState);
    return () => {
      off();
      r.destroy();
      setRoom(null);
    };
  }, [allowed, me.loading, roomId, userId, otherId, workOffline]);

  useEffect(() => {
    if (state?.closed) setError(SEND_FAILED);
  }, [state?.closed]);

  useEffect(() => {
    endRef.current?.scrollIntoView({ block: 'end' });
  }, [state?.messages.length]);

  // Opening the conversation as the participant who did not send the last message marks it read
  // (`unreadSince` names the last message while it is unread by this user).
  const unreadSince =
    conv && !conv.lastMessageRead && conv.lastSenderId && conv.lastSenderId !== userId
      ? conv.lastMessageTimestamp
      : null;
  useEffect(() => {
    if (unreadSince === null) return;
    void local
      .get('conversations', roomId)
      .then((c) => c && !c.lastMessageRead && local.patch('conversations', roomId, { lastMessageRead: true }));
  }, [unreadSince, local, roomId]);

  // Its unread message notifications are read too: the badge clears on every device.
  const unreadNotes = useUnreadNotifications(roomId);
  useEffect(() => {
    for (const n of unreadNotes.data ?? []) void local.patch('notifications', n.id, { read: true });
  }, [unreadNotes.data, local]);

  const messages = useMemo(() => state?.messages ?? [], [state?.messages]);
  const names = useMemo(
    () => ({ [userId]: 'You', [otherId]: otherProfile?.name ?? 'Them' }),
    [userId, otherId, otherProfile?.name],
  );
  const gigs = useMemo(() => linkedGigs(linking.data ?? []), [linking.data]);
  const writing = writingAbout(gigs, searchParams.get('gig'), messages);
  const markers = useMemo(() => subjectChanges(gigs, messages), [gigs, messages]);
  const liveGigs = gigs.filter((g) => !g.deleted);

  if (otherId === userId) {
    return (
      <main className="page narrow">
        <p role="alert" className="form-error">
          {CHAT_MESSAGES.withSelf}
        </p>
        <Link to={PATHS.landing}>Back to the gig board</Link>
      </main>
    );
  }
  // Right after sign-in the linking application may still be on its way: wait for the first sync.
  if (linking.loading || conversation.loading || (!allowed && !firstSyncDone))
    return <p role="status">Loading conversation…</p>;
  if (!allowed) return <Navigate to={PATHS.applications} replace state={{ notice: NO_LINK_NOTICES.fromLink }} />;

  function changeDraft(text: string) {
    setDraft(text);
    localStorage.setItem(chatDraftKey(userId, roomId), text);
    room?.setTyping(text.trim().length > 0);
  }

  function send(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const checked = checkMessage(draft);
    if (!checked.ok) {
      if (checked.error) setError(checked.error);
      return;
    }
    try {
      if (!room || state?.closed) throw new Error('room closed');
      room.send(checked.content, writing?.gigId);
      changeDraft('');
    } catch {
      setError(SEND_FAILED);
    }
  }

  const presence = state?.other;
  return (
    <main className="page narrow chat">
      <div className="chat__head">
        <h1>{otherProfile ? <ProfileLink userId={otherId} name={otherProfile.name} /> : 'Conversation'}</h1>
        <p className="field-state" aria-live="polite" data-testid="presence">
          {presence?.typing ? `${otherProfile?.name ?? 'They'} is typing…` : presence?.online ? 'Online' : 'Offline'}
        </p>
        <LinkedGigsList gigs={gigs} current={writing?.gigId} />
      </div>
      {messages.length > 0 ? null : !state?.loaded ? (
        <p role="status">Loading messages…</p>
      ) : state.everSynced || state.synced || conv?.lastMessageTimestamp == null ? (
        <p className="empty">No messages yet. Say hello!</p>
      ) : state.connected || online ? (
        <p role="status">Loading messages…</p>
      ) : (
        <p className="empty">{NOT_DOWNLOADED}</p>
      )}
      {messages.length > 0 && (
        <MessageList
          messages={messages}
          markers={markers}
          names={names}
          userId={userId}
          connected={state?.connected ?? false}
        />
      )}
      <div ref={endRef} />
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
      {liveGigs.length > 1 ? (
        <p className="chat__about">
          <label htmlFor="chat-about">About</label>{' '}
          <select
            id="chat-about"
            value={writing?.gigId ?? ''}
            onChange={(e) => setSearchParams(e.target.value ? { gig: e.target.value } : {}, { replace: true })}
          >
            {!writing && <option value="">Choose a gig</option>}
            {liveGigs.map((g) => (
              <option key={g.gigId} value={g.gigId}>
                {g.title}
              </option>
            ))}
          </select>
        </p>
      ) : (
        writing && <p className="field-state chat__about">About: {writing.title}</p>
      )}
      <form className="chat__form" onSubmit={send}>
        <label className="visually-hidden" htmlFor="chat-input">
          Message
        </label>
        <textarea
          id="chat-input"
          rows={2}
          value={draft}
          onChange={(e) => changeDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }
          }}
          placeholder={`Message ${otherProfile?.name ?? ''}`.trim()}
        />
        <button type="submit" className="button" disabled={draft.trim().length === 0}>
          Send
        </button>
      </form>
      {!state?.connected && (
        <p className="field-state">Offline: messages are kept on this device and sent when you reconnect.</p>
      )}
    </main>
  );
}
