import { lazy, Suspense, useState, type ReactNode } from 'react';
import { NavLink } from 'react-router-dom';
import { unreadBadgeCount } from '../../../shared/display';
import { NAV_ROUTES, PATHS } from '../../../shared/routes';
import { useData, useOptionalData } from '../../data/data-provider';
import { useConversations, useUnreadNotifications } from '../../data/queries';
import { ChatDownloads } from '../../features/chat/chat-downloads';
import { SyncProblems } from '../../features/sync/sync-problems';
import { SyncStatusIndicator, SyncStatusOpening } from '../../features/sync/sync-status-indicator';
import { useSession } from '../session';
import { LogoutButton } from './logout-button';

/** The unread badge on Notifications (docs/product.md §2); rendered once the database is open. */
function UnreadBadge() {
  const { userId } = useData();
  const notes = useUnreadNotifications();
  const convs = useConversations();
  const unread = unreadBadgeCount(notes.data ?? [], convs.data ?? [], userId);
  if (unread === 0) return null;
  return (
    <span className="badge" aria-label={`${unread} unread`} data-testid="unread-badge">
      {unread}
    </span>
  );
}

const SyncPanel = lazy(() => import('../../features/sync/sync-panel'));

/**
 * The signed-in layout: the nav bar (docs/product.md §2), the sync status, and writes the server refused.
 * The nav paints before the database opens; the parts that read it appear once it is open.
 */
export function SignedInLayout({ children }: { children: ReactNode }) {
  const { operator } = useSession();
  const data = useOptionalData();
  // Stays open across a reset of the device's data (the panel returns once the data is open again).
  const [panelOpen, setPanelOpen] = useState(false);
  return (
    <div className="app-shell">
      <header className="app-header">
        <nav className="app-nav" aria-label="Main">
          {NAV_ROUTES.map(({ path, nav }) => (
            <NavLink key={path} to={path}>
              {nav}
              {path === PATHS.notifications && data && <UnreadBadge />}
            </NavLink>
          ))}
          {operator && <NavLink to={PATHS.operatorDisputes}>Disputes</NavLink>}
          <LogoutButton />
        </nav>
        {data ? <SyncStatusIndicator onOpen={() => setPanelOpen(true)} /> : <SyncStatusOpening />}
      </header>
      {data && <SyncProblems />}
      {data && <ChatDownloads />}
      {data && panelOpen && (
        <Suspense fallback={null}>
          <SyncPanel onClose={() => setPanelOpen(false)} />
        </Suspense>
      )}
      {children}
    </div>
  );
}
