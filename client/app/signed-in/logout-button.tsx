import { useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { PATHS } from '../../../shared/routes';
import { useDeviceData, useOptionalData } from '../../data/data-provider';
import { deleteUserData, waitingChangesOnDevice } from '../../data/device-storage';
import { sendWaitingChatMessages } from '../../features/chat';
import { forgetDevicePush } from '../../lib/web-push';
import { ConfirmDialog, Modal } from '../../ui/modal';
import { useSession } from '../session';
import { unsentOnDevice as unsent, whileLoggingOut } from '../session-ended';

/** How long a logout waits for what is waiting to go out before asking. */
const SEND_BEFORE_LOGOUT_MS = 15_000;

/** The question before losing changes (issue 17), with the real count. */
export function unsentQuestion(count: number): string {
  return count === 1
    ? '1 change has not been sent. Log out anyway and lose it?'
    : `${count} changes have not been sent. Log out anyway and lose them?`;
}

type Phase = { kind: 'idle' } | { kind: 'sending' } | { kind: 'confirm'; count: number } | { kind: 'leaving' };

/**
 * Logout on a device others may use next (issue 17): what waits to go out is sent first; what
 * cannot be (offline, "Work offline", or the server not taking it in time) is counted and the user
 * is asked before it is lost. Then the session ends and everything this device kept for the user
 * is deleted: the database, the chat rooms, drafts.
 */
export function LogoutButton() {
  const { logout } = useSession();
  const device = useDeviceData();
  const data = useOptionalData();
  const navigate = useNavigate();
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  /** The logout under way, if any: closing its dialog cancels it (the user stays signed in). */
  const attempt = useRef<{ cancelled: boolean } | null>(null);
  const { userId } = device;

  function cancel() {
    if (attempt.current) attempt.current.cancelled = true;
    attempt.current = null;
    setPhase({ kind: 'idle' });
  }

  async function leave() {
    setPhase({ kind: 'leaving' });
    await whileLoggingOut(userId, () =>
      logout({
        beforeServer: forgetDevicePush,
        beforeSignOut: async () => {
          await device.close();
          await deleteUserData(userId).catch(() => undefined); // finished at the next start (device-storage.ts)
        },
      }),
    );
    navigate(PATHS.login, { replace: true });
  }

  async function start() {
    if (phase.kind !== 'idle' || attempt.current) return;
    const current = { cancelled: false };
    attempt.current = current;
    let count = await unsent(userId);
    const reachable = navigator.onLine && !(data?.workOffline.on ?? false);
    if (count > 0 && reachable && !current.cancelled) {
      setPhase({ kind: 'sending' });
      const deadline = Date.now() + SEND_BEFORE_LOGOUT_MS;
      const stop = () => current.cancelled || Date.now() >= deadline;
      await sendWaitingChatMessages(userId, deadline).catch(() => undefined);
      // The tab that replicates (this one or another) pushes the outbox; wait for it to empty.
      while (waitingChangesOnDevice(userId) > 0 && !stop()) await new Promise((r) => setTimeout(r, 200));
      count = await unsent(userId);
    }
    // The "Logging out" dialog was closed meanwhile: the user stays signed in, nothing is deleted.
    if (current.cancelled) return;
    attempt.current = null;
    if (count > 0) setPhase({ kind: 'confirm', count });
    else await leave();
  }

  return (
    <>
      <button type="button" className="nav-button" onClick={() => void start()} disabled={phase.kind === 'leaving'}>
        Logout
      </button>
      {phase.kind === 'sending' && (
        <Modal title="Logging out" onClose={cancel}>
          <p role="status">Sending your changes before you log out…</p>
        </Modal>
      )}
      {phase.kind === 'confirm' && (
        <ConfirmDialog
          title="Log out?"
          message={<p>{unsentQuestion(phase.count)}</p>}
          confirmLabel="Log out anyway"
          onCancel={cancel}
          onConfirm={() => void leave()}
        />
      )}
    </>
  );
}
