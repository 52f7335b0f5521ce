import { useEffect, useState } from 'react';
import type { SyncProblem } from '../../data/collections';
import { useData, useDeviceData, useSyncStatus } from '../../data/data-provider';
import {
  useApplicationsWith,
  useLocalCounts,
  useSyncProblems,
  useUser,
  useWaitingChanges,
  type WaitingChange,
} from '../../data/queries';
import { statusLabel } from '../../data/sync-status';
import { dateLabel, dayAndTimeLabel } from '../../lib/date-labels';
import { useNow } from '../../ui/hooks';
import { ConfirmDialog, Modal } from '../../ui/modal';
import { waitingChatMessages, type WaitingInRoom } from '../chat';
import { COLLECTION_LABELS, describeChange } from './describe-change';
import { keptDocument, readableContent } from './kept-content';

const STATE_LABELS = { waiting: 'Waiting', sending: 'Sending…', refused: 'Refused' } as const;

const timeLabel = dateLabel({ hour: '2-digit', minute: '2-digit' });

function ago(at: number | null, now: number): string {
  if (at === null) return 'Not yet';
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  const time = timeLabel(at);
  if (seconds < 10) return `Just now (${time})`;
  if (seconds < 60) return `${seconds} seconds ago (${time})`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'} ago (${time})`;
  return dayAndTimeLabel(at);
}

function bytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** The storage the browser gives this site, and how much of it is used (`navigator.storage.estimate()`). */
function useStorageEstimate(refresh: unknown): { usage: number; quota: number } | null | undefined {
  const [estimate, setEstimate] = useState<{ usage: number; quota: number } | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    if (!navigator.storage?.estimate) {
      setEstimate(null);
      return;
    }
    navigator.storage.estimate().then(
      (e) => live && setEstimate({ usage: e.usage ?? 0, quota: e.quota ?? 0 }),
      () => live && setEstimate(null),
    );
    return () => {
      live = false;
    };
  }, [refresh]);
  return estimate;
}

/**
 * Chat messages written here that have not gone out, per conversation; read again when `refresh`
 * changes and, while some are waiting and can go out (`sending`), every `CHAT_RECHECK_MS`: a
 * message goes out over its room's socket, not the sync, so nothing else tells the panel when the
 * server has stamped it (the last sync answer may come before the stamp). Bounded: the panel is
 * open, and a read opens at most 50 rooms (`waiting-messages.ts`).
 */
function useWaitingChat(userId: string, refresh: unknown, sending: boolean): WaitingInRoom[] | undefined {
  const [rooms, setRooms] = useState<WaitingInRoom[] | undefined>(undefined);
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = () =>
      waitingChatMessages(userId).then(
        (r) => {
          if (!live) return;
          setRooms(r);
          if (r.length > 0 && sending) timer = setTimeout(read, CHAT_RECHECK_MS);
        },
        () => live && setRooms([]),
      );
    void read();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [userId, refresh, sending]);
  return rooms;
}

const CHAT_RECHECK_MS = 1_000;

function ChatRoomRow({ room }: { room: WaitingInRoom }) {
  const other = useUser(room.otherId);
  // The other user's profile reaches this device once the server links the two; until then the
  // application between them (written here) names them.
  const linking = useApplicationsWith(room.otherId);
  const application = linking.data?.[0];
  const named = application
    ? application.applicantId === room.otherId
      ? application.applicantName
      : application.creatorName
    : undefined;
  const name = other.data?.name || named || 'someone';
  return (
    <li>
      {room.count} message{room.count === 1 ? '' : 's'} to {name}
    </li>
  );
}

function WaitingRow({ change, sending }: { change: WaitingChange; sending: boolean }) {
  const state = sending ? 'sending' : 'waiting';
  return (
    <li className="sync-item">
      <div className="sync-item__head">
        <span className="sync-item__what">{describeChange(change.collection, change.doc, change.deleted)}</span>
        <span className="sync-item__collection">{COLLECTION_LABELS[change.collection]}</span>
        <span className={`sync-state sync-state--${state}`}>{STATE_LABELS[state]}</span>
      </div>
    </li>
  );
}

function RefusedRow({ problem }: { problem: SyncProblem }) {
  const { local } = useData();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const kept = keptDocument(problem);
  const what = describeChange(problem.collectionName, kept);

  async function retry() {
    setError(null);
    try {
      if (!kept) throw new Error('unreadable');
      await local.restore(problem.collectionName, kept);
      await local.remove('syncproblems', problem.id);
    } catch {
      setError('This change could not be sent again. Its content is still kept here.');
    }
  }

  return (
    <li className="sync-item">
      <div className="sync-item__head">
        <span className="sync-item__what">{what}</span>
        <span className="sync-item__collection">{COLLECTION_LABELS[problem.collectionName]}</span>
        <span className="sync-state sync-state--refused">{STATE_LABELS.refused}</span>
      </div>
      <p className="sync-item__reason">{problem.reason}</p>
      <details>
        <summary>Content kept</summary>
        <pre className="sync-item__content">{readableContent(problem) || problem.content}</pre>
      </details>
      <div className="row">
        <button type="button" className="button button--small" onClick={() => void retry()}>
          Retry
        </button>
        <button type="button" className="button button--small button--quiet" onClick={() => setConfirming(true)}>
          Discard
        </button>
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {confirming && (
        <ConfirmDialog
          title="Discard this change?"
          message={`${what}: what it kept will be lost.`}
          confirmLabel="Discard"
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void local.remove('syncproblems', problem.id);
          }}
        />
      )}
    </li>
  );
}

/**
 * The sync panel (issue 17), opened from the sync status in the nav: what waits to go out and in
 * what state, refused changes with Retry and Discard, chat messages waiting, when the device last
 * heard from the server, what the device holds, "Work offline" and "Reset this device".
 */
export default function SyncPanel({ onClose }: { onClose: () => void }) {
  const { workOffline, userId } = useData();
  const device = useDeviceData();
  const status = useSyncStatus();
  const now = useNow(5_000);
  const changes = useWaitingChanges();
  const problems = useSyncProblems();
  const counts = useLocalCounts(`${status.initialSync.received}:${status.pending}:${status.syncing}`);
  const estimate = useStorageEstimate(counts);
  const chat = useWaitingChat(
    userId,
    `${status.workingOffline}:${status.lastHeardAt}`,
    status.network === 'online' && !status.workingOffline,
  );
  const [confirmReset, setConfirmReset] = useState(false);
  const [resetting, setResetting] = useState(false);
  const [resetError, setResetError] = useState<string | null>(null);
  const sending = new Set(status.sending);
  const refused = problems.data ?? [];
  const total = counts ? Object.values(counts).reduce((a, b) => a + (b ?? 0), 0) : 0;

  async function reset() {
    setConfirmReset(false);
    setResetting(true);
    setResetError(null);
    try {
      await device.reset();
    } catch {
      setResetError('This device could not be reset. Close the app’s other tabs and try again.');
      setResetting(false);
    }
  }

  return (
    <Modal title="Sync" onClose={onClose} wide>
      <div className="sync-panel">
        <p className="sync-panel__status">{statusLabel(status).label}</p>
        <dl className="details">
          <dt>Last heard from the server</dt>
          <dd data-testid="last-heard">{ago(status.lastHeardAt, now)}</dd>
        </dl>
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            checked={status.workingOffline}
            aria-describedby="work-offline-hint"
            onChange={(e) => workOffline.set(e.target.checked)}
          />
          Work offline
        </label>
        <p id="work-offline-hint" className="hint">
          While this is on, this device sends and fetches nothing, in any tab, chat included. Your changes wait here
          until you turn it off.
        </p>

        <section aria-labelledby="sync-changes">
          <h3 id="sync-changes">Changes</h3>
          {changes === undefined || problems.loading ? (
            <p role="status">Loading changes…</p>
          ) : changes.length === 0 && refused.length === 0 ? (
            <p className="empty">Nothing is waiting to go out.</p>
          ) : (
            <ul className="sync-list" aria-label="Changes">
              {changes.map((c) => (
                <WaitingRow key={c.key} change={c} sending={sending.has(c.key)} />
              ))}
              {refused.map((p) => (
                <RefusedRow key={p.id} problem={p} />
              ))}
            </ul>
          )}
        </section>

        <section aria-labelledby="sync-chat">
          <h3 id="sync-chat">Chat messages waiting</h3>
          {chat === undefined ? (
            <p role="status">Looking for chat messages…</p>
          ) : chat.length === 0 ? (
            <p className="empty">No chat messages are waiting.</p>
          ) : (
            <ul className="sync-list" aria-label="Chat messages waiting">
              {chat.map((room) => (
                <ChatRoomRow key={room.roomId} room={room} />
              ))}
            </ul>
          )}
        </section>

        <section aria-labelledby="sync-device">
          <h3 id="sync-device">On this device</h3>
          {counts === undefined ? (
            <p role="status">Counting…</p>
          ) : (
            <table className="sync-counts">
              <caption className="visually-hidden">Documents stored on this device</caption>
              <tbody>
                {Object.entries(counts).map(([name, n]) => (
                  <tr key={name}>
                    <th scope="row">{COLLECTION_LABELS[name] ?? name}</th>
                    <td>{n}</td>
                  </tr>
                ))}
                <tr>
                  <th scope="row">All documents</th>
                  <td>{total}</td>
                </tr>
              </tbody>
            </table>
          )}
          <p data-testid="storage-estimate">
            {estimate === undefined
              ? 'Measuring storage…'
              : estimate === null
                ? 'This browser does not say how much storage the app uses.'
                : `Storage used by the app: ${bytes(estimate.usage)} of ${bytes(estimate.quota)} the browser allows.`}
          </p>
        </section>

        <section aria-labelledby="sync-reset">
          <h3 id="sync-reset">Reset this device</h3>
          <p>
            Deletes the copy of your data on this device and downloads it again from the server. Use it when something
            here looks wrong. Chat history stays.
          </p>
          <button
            type="button"
            className="button button--danger"
            disabled={resetting}
            onClick={() => setConfirmReset(true)}
          >
            {resetting ? 'Resetting…' : 'Reset this device'}
          </button>
          {resetError && (
            <p className="form-error" role="alert">
              {resetError}
            </p>
          )}
        </section>
      </div>
      {confirmReset && (
        <ConfirmDialog
          title="Reset this device?"
          message={
            <>
              <p>The data stored on this device for your account is deleted and downloaded again from the server.</p>
              {status.pending > 0 && (
                <p>
                  <strong>
                    {status.pending} change{status.pending === 1 ? ' has' : 's have'} not been sent and will be lost.
                  </strong>
                </p>
              )}
              {refused.length > 0 && (
                <p>
                  {refused.length === 1
                    ? 'The refused change kept here will be lost too.'
                    : `The ${refused.length} refused changes kept here will be lost too.`}
                </p>
              )}
            </>
          }
          confirmLabel="Reset this device"
          onCancel={() => setConfirmReset(false)}
          onConfirm={() => void reset()}
        />
      )}
    </Modal>
  );
}
