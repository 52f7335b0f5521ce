import { memo } from 'react';
import type { ShownChatMessage } from '../../../shared/chat-doc';
import { dayAndTimeLabel } from '../../lib/date-labels';
import type { LinkedGig } from './chat-gigs';
import { SubjectMarker } from './linked-gigs-list';

type MessageListProps = {
  messages: readonly ShownChatMessage[];
  /** The gig a message starts talking about, by message id (where the subject changes). */
  markers: ReadonlyMap<string, LinkedGig>;
  /** Each participant's name as the list shows it ("You" for the reader). */
  names: Readonly<Record<string, string>>;
  userId: string;
  /** The room's socket is open: a message not yet stamped is "Sending…", else "Waiting to send". */
  connected: boolean;
};

/**
 * A conversation's messages in order, each with its sender, its time (or that it is on its way)
 * and where the subject moves to another gig. Drawn again only when one of these changes, never
 * for a keystroke in the message box: the draft is the chat screen's state, and a long
 * conversation made every keystroke draw hundreds of messages (decision 008).
 */
export const MessageList = memo(function MessageList({
  messages,
  markers,
  names,
  userId,
  connected,
}: MessageListProps) {
  return (
    <ol className="messages" aria-label="Messages" aria-live="polite">
      {messages.map((m) => (
        <li key={m.id} className={m.senderId === userId ? 'message message--mine' : 'message'}>
          {markers.has(m.id) && <SubjectMarker gig={markers.get(m.id)!} />}
          <p className="message__meta">
            <strong>{names[m.senderId] ?? 'Someone'}</strong>{' '}
            <span>{m.pending ? (connected ? 'Sending…' : 'Waiting to send') : dayAndTimeLabel(m.timestamp!)}</span>
          </p>
          <p className="message__text">{m.content}</p>
        </li>
      ))}
    </ol>
  );
});
