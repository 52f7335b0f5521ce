import { stamp } from '../domain/documents';
import { refuse, type Policy } from './types';

/** Notifications are written by the server; their recipient may only mark them read. */
export const notificationPolicy: Policy<'notifications'> = ({ actor, current, incoming, deleting, now }) => {
  if (!current || current.userId !== actor.id) return refuse('Notifications are created by the server.');
  if (deleting) return refuse('Notifications cannot be deleted.');
  if (incoming.read !== true) return refuse('A notification can only be marked as read.');
  if (current.read === true) return { ok: true, writes: [] };
  return {
    ok: true,
    writes: [{ collection: 'notifications', doc: { ...current, read: true, updatedAt: stamp(now, current) } }],
  };
};
