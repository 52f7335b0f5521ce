import { useSyncStatus } from '../../data/data-provider';

/**
 * Always visible in the signed-in layout: online, offline or syncing, and what waits to go out;
 * when the server holds this user's writes back for a while (a write quota), its message.
 */
export function SyncStatusIndicator() {
  const status = useSyncStatus();
  const waiting =
    status.pending > 0 ? ` · ${status.pending} change${status.pending === 1 ? '' : 's'} waiting to sync` : '';
  let label: string;
  let tone: 'ok' | 'busy' | 'off' | 'error';
  if (status.network === 'offline') {
    label = `Offline${waiting || ' · your data is available'}`;
    tone = 'off';
  } else if (status.storeFailed) {
    // Never "up to date" while data the server sent is missing here.
    label = `Some data could not be saved on this device · retrying${waiting}`;
    tone = 'error';
  } else if (status.throttled) {
    label = `${status.throttled}${waiting}`;
    tone = 'busy';
  } else if (!status.initialSync.done) {
    label = `Syncing your data… ${status.initialSync.received} item${status.initialSync.received === 1 ? '' : 's'} received`;
    tone = 'busy';
  } else if (status.syncing || status.pending > 0) {
    label = `Syncing${waiting}`;
    tone = 'busy';
  } else if (status.unstorable > 0) {
    label = `Online · ${status.unstorable} item${status.unstorable === 1 ? '' : 's'} from the server could not be stored`;
    tone = 'error';
  } else {
    label = 'Online · up to date';
    tone = 'ok';
  }
  return (
    <p className={`sync-status sync-status--${tone}`} role="status" aria-live="polite" data-testid="sync-status">
      <span className="sync-status__dot" aria-hidden="true" />
      {label}
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
