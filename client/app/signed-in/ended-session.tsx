import { startTransition, useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { PATHS } from '../../../shared/routes';
import { useDeviceData } from '../../data/data-provider';
import { useSession } from '../session';
import { settleEndedSession } from '../session-ended';

/**
 * Inside the user's data: what the signed-in area does when the server ended the session by itself
 * (a 401, or the check at start), handed to it in `settle`: the data closes in this tab before it
 * is deleted, and the login page says what became of it (session-ended.ts).
 */
export function EndedSession({ settle }: { settle: { current: (() => void) | null } }) {
  const device = useDeviceData();
  const { signOutLocally } = useSession();
  const navigate = useNavigate();
  useEffect(() => {
    settle.current = () =>
      void settleEndedSession(device.userId, {
        close: device.close,
        signOut: (notice) =>
          // One transition for both (as the login page does), so the session rules never send the
          // signed-out user to the login page without the notice.
          startTransition(() => {
            navigate(PATHS.login, { replace: true, state: { notice } });
            signOutLocally();
          }),
      });
    return () => {
      settle.current = null;
    };
  }, [settle, device, navigate, signOutLocally]);
  return null;
}
