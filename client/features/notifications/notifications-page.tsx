import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { isMessageNotification, notificationTarget } from '../../../shared/display';
import type { Notification } from '../../../shared/schemas/notification';
import { useData, useFirstSyncUnderWay } from '../../data/data-provider';
import { useNotifications } from '../../data/queries';
import { Tabs } from '../../ui/tabs';
import { NotificationIcon } from './notification-icon';

const LOAD_FAILED = 'Failed to load notifications. Please try again later.';
type Filter = 'all' | 'messages';

function timeAgo(at: number, now: number): string {
  const minutes = Math.round((now - at) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return new Date(at).toLocaleDateString();
}

/**
 * `/notifications` (docs/product.md §2): All or Messages Only, an icon per type, and a click that marks
 * the notification read and navigates. Live from the local database, offline too.
 */
export default function NotificationsPage() {
  const { local } = useData();
  const navigate = useNavigate();
  const [filter, setFilter] = useState<Filter>('all');
  const { data, loading, error } = useNotifications();
  // A new device shows its notifications once they have all come, never "No notifications yet."
  // (or a short list) while they are on the way.
  const firstPass = useFirstSyncUnderWay('notifications');
  const all = data ?? [];
  const shown = filter === 'messages' ? all.filter((n) => isMessageNotification(n.type)) : all;
  const now = Date.now();

  async function open(n: Notification) {
    if (!n.read) await local.patch('notifications', n.id, { read: true });
    navigate(notificationTarget(n));
  }

  return (
    <main className="page narrow">
      <h1>Notifications</h1>
      <Tabs
        label="Filter notifications"
        tabs={[
          ['all', 'All'],
          ['messages', 'Messages Only'],
        ]}
        selected={filter}
        onSelect={setFilter}
      />
      {loading || firstPass ? (
        <p role="status">Loading notifications…</p>
      ) : error ? (
        <p role="alert" className="form-error">
          {LOAD_FAILED}
        </p>
      ) : shown.length === 0 ? (
        <p className="empty">{filter === 'messages' ? 'No message notifications yet.' : 'No notifications yet.'}</p>
      ) : (
        <ul className="card-list" aria-label="Notifications">
          {shown.map((n) => (
            <li key={n.id}>
              <button
                type="button"
                className={n.read ? 'notification' : 'notification notification--unread'}
                onClick={() => void open(n)}
              >
                <NotificationIcon type={n.type} />
                <span className="notification__text">
                  {!n.read && <span className="visually-hidden">Unread: </span>}
                  {n.message}
                </span>
                <span className="notification__time">{timeAgo(n.createdAt, now)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
