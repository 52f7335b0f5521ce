import { useSyncStatus } from '../../data/data-provider';
import { statusLabel } from '../../data/sync-status';

/**
 * Always visible in the signed-in layout: online, offline or syncing, and what waits to go out;
 * when the server holds this user's writes back for a while (a write quota), its message. It
 * opens the sync panel.
 */
export function SyncStatusIndicator({ onOpen }: { onOpen: () => void }) {
  const status = useSyncStatus();
  const { label, tone } = statusLabel(status);
  return (
    <p className={`sync-status sync-status--${tone}`} role="status" aria-live="polite" data-testid="sync-status">
      <button type="button" className="sync-status__button" aria-haspopup="dialog" onClick={onOpen}>
        <span className="sync-status__dot" aria-hidden="true" />
        {label}
        <span className="visually-hidden"> · Open the sync panel</span>
      </button>
    </p>
  );
}

/** Holds the indicator's place while the database opens, so nothing moves when it appears. */
export function SyncStatusOpening() {
  return (
    <p className="sync-status sync-status--busy" role="status" aria-live="polite" data-testid="sync-status">
      <span className="sync-status__dot" aria-hidden="true" />
      Opening your data…
    </p>
  );
}
