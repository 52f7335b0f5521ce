import { useCallback, useEffect, useId, useState } from 'react';
import { groupsOfTypes, PUSH_GROUPS, typesOfGroups, type PushGroupId } from '../../../shared/push';
import { useData } from '../../data/data-provider';
import { isOffline } from '../../lib/api';
import {
  devicePushState,
  disableDevicePush,
  enableDevicePush,
  PUSH_MESSAGES,
  PushSetupError,
  pushSupported,
  type PushState,
} from '../../lib/web-push';
import { useOnline } from '../../ui/hooks';

type View =
  | { kind: 'loading' }
  | { kind: 'unsupported' }
  | { kind: 'ready'; state: PushState }
  | { kind: 'error'; message: string; state?: PushState };

const ALL_GROUPS: PushGroupId[] = PUSH_GROUPS.map((g) => g.id);

function messageOf(err: unknown): string {
  if (err instanceof PushSetupError) return err.message;
  if (isOffline(err)) return PUSH_MESSAGES.offline;
  // The browser refused the subscription itself (no push service reachable, a blocked permission).
  if (err instanceof DOMException && err.name === 'NotAllowedError') return PUSH_MESSAGES.denied;
  return PUSH_MESSAGES.failed;
}

/**
 * "Notify me on this device" (issue 17): web push for this browser, with the kinds of
 * notification to send. What is on is this device's own setting, kept by the server per user and
 * device; logging out turns it off.
 */
export function PushSection() {
  const { userId } = useData();
  const online = useOnline();
  const [view, setView] = useState<View>(() => (pushSupported() ? { kind: 'loading' } : { kind: 'unsupported' }));
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const groupsId = useId();

  const load = useCallback(async () => {
    if (!pushSupported()) return;
    setView({ kind: 'loading' });
    try {
      setView({ kind: 'ready', state: await devicePushState() });
    } catch (err) {
      setView({ kind: 'error', message: messageOf(err) });
    }
  }, []);

  useEffect(() => {
    if (online) void load();
  }, [online, load]);

  const state = view.kind === 'ready' ? view.state : view.kind === 'error' ? view.state : undefined;

  async function change(work: () => Promise<PushState>, done: string) {
    setBusy(true);
    setSaved(null);
    try {
      const next = await work();
      setView({ kind: 'ready', state: next });
      setSaved(done);
    } catch (err) {
      setView({ kind: 'error', message: messageOf(err), ...(state ? { state } : {}) });
    } finally {
      setBusy(false);
    }
  }

  const toggle = (on: boolean) =>
    change(
      () => (on ? enableDevicePush(userId, typesOfGroups(ALL_GROUPS)) : disableDevicePush()),
      on ? 'Notifications are on for this device.' : 'Notifications are off for this device.',
    );

  const setGroup = (group: PushGroupId, on: boolean) => {
    const current = groupsOfTypes(state?.types ?? []);
    const next = on ? [...current, group] : current.filter((g) => g !== group);
    return change(() => enableDevicePush(userId, typesOfGroups(next)), 'Saved.');
  };

  const denied = typeof Notification !== 'undefined' && Notification.permission === 'denied';
  const chosen = new Set(groupsOfTypes(state?.types ?? []));

  return (
    <section aria-labelledby="settings-push" className="push-settings">
      <h2 id="settings-push">Notifications on this device</h2>
      <p>
        Get a notification on this device when you receive an application, an offer, a payment or a message, even when
        the app is closed.
      </p>
      {view.kind === 'unsupported' ? (
        <p>{PUSH_MESSAGES.unsupported}</p>
      ) : view.kind === 'loading' && online ? (
        <p role="status">Checking this device…</p>
      ) : (
        <>
          {!online && <p role="status">{PUSH_MESSAGES.offline}</p>}
          {denied && !state?.subscribed && <p className="form-error">{PUSH_MESSAGES.denied}</p>}
          <label className="switch">
            <input
              type="checkbox"
              role="switch"
              checked={state?.subscribed ?? false}
              disabled={busy || !online || !state}
              onChange={(e) => void toggle(e.target.checked)}
            />
            Notify me on this device
          </label>
          {state?.subscribed && (
            <fieldset className="push-settings__groups" aria-describedby={groupsId} disabled={busy || !online}>
              <legend>Send me notifications about</legend>
              <p id={groupsId} className="hint">
                Only what is checked is sent to this device. Everything still shows on the Notifications page.
              </p>
              {PUSH_GROUPS.map((g) => (
                <label key={g.id} className="checkbox">
                  <input
                    type="checkbox"
                    checked={chosen.has(g.id)}
                    onChange={(e) => void setGroup(g.id, e.target.checked)}
                  />
                  {g.label}
                </label>
              ))}
            </fieldset>
          )}
          {view.kind === 'error' && (
            <div className="row">
              <p className="form-error" role="alert">
                {view.message}
              </p>
              <button type="button" className="button button--quiet" onClick={() => void load()}>
                Try Again
              </button>
            </div>
          )}
          <p role="status" className="push-settings__saved">
            {saved}
          </p>
        </>
      )}
    </section>
  );
}
