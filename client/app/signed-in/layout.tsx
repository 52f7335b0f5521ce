import type { ReactNode } from 'react';
import { NavLink, useNavigate } from 'react-router-dom';
import { unreadBadgeCount } from '../../../shared/display';
import type { Conversation } from '../../../shared/schemas/conversation';
import type { Notification } from '../../../shared/schemas/notification';
import { useData } from '../../data/data-provider';
import { useLive } from '../../data/use-live-query';
import { SyncProblems } from '../../features/sync/sync-problems';
import { SyncStatusIndicator } from '../../features/sync/sync-status-indicator';
import { useSession } from '../session';

function useUnreadCount(): number {
  const { db, userId } = useData();
  const notes = useLive(() => db.notifications.find({ selector: { read: false } }).$, [db]);
  const convs = useLive(() => db.conversations.find().$, [db]);
  const n = (notes.data ?? []).map((d) => d.toJSON() as Notification);
  const c = (convs.data ?? []).map((d) => d.toJSON() as Conversation);
  return unreadBadgeCount(n, c, userId);
}

/** The signed-in layout: the nav bar (SPEC.md §2), the sync status, and writes the server refused. */
export function SignedInLayout({ children }: { children: ReactNode }) {
  const { logout } = useSession();
  const navigate = useNavigate();
  const unread = useUnreadCount();
  const links: [string, string][] = [
    ['/landing', 'Home'],
    ['/create-gig', 'Create Gig'],
    ['/basket', 'My Gigs'],
    ['/applications', 'Applications'],
  ];
  return (
    <div className="app-shell">
      <header className="app-header">
        <nav className="app-nav" aria-label="Main">
          {links.map(([to, label]) => (
            <NavLink key={to} to={to}>
              {label}
            </NavLink>
          ))}
          <NavLink to="/notifications">
            Notifications
            {unread > 0 && (
              <span className="badge" aria-label={`${unread} unread`} data-testid="unread-badge">
                {unread}
              </span>
            )}
          </NavLink>
          <NavLink to="/profile">Profile</NavLink>
          <NavLink to="/settings">Settings</NavLink>
          <button
            type="button"
            className="nav-button"
            onClick={() => {
              void logout().finally(() => navigate('/login', { replace: true }));
            }}
          >
            Logout
          </button>
        </nav>
        <SyncStatusIndicator />
      </header>
      <SyncProblems />
      {children}
    </div>
  );
}
