import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { isAppPath, OPEN_URL_MESSAGE } from '../../shared/push-links';

type InstallPromptEvent = Event & { prompt(): Promise<void>; userChoice: Promise<{ outcome: string }> };

/**
 * Service worker with the `prompt` update flow: a waiting new version is announced with a Reload
 * button and never activated behind the user's back (a silent reload could lose a form). The
 * install button appears only when the browser offers `beforeinstallprompt`.
 */
export function PwaPrompts() {
  const [updateReady, setUpdateReady] = useState<(() => void) | null>(null);
  const [installEvent, setInstallEvent] = useState<InstallPromptEvent | null>(null);
  const navigate = useNavigate();

  // A click on a push notification while the app is open: the service worker focuses this window
  // and asks it to open the notification's page (client/sw/push-handlers.ts).
  useEffect(() => {
    if (!('serviceWorker' in navigator)) return;
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { type?: unknown; url?: unknown } | null;
      if (data?.type === OPEN_URL_MESSAGE && isAppPath(data.url)) navigate(data.url);
    };
    navigator.serviceWorker.addEventListener('message', onMessage);
    return () => navigator.serviceWorker.removeEventListener('message', onMessage);
  }, [navigate]);

  useEffect(() => {
    if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
    let cancelled = false;
    void import('virtual:pwa-register').then(({ registerSW }) => {
      if (cancelled) return;
      const update = registerSW({
        onNeedRefresh() {
          setUpdateReady(() => () => {
            // Reload once the new worker controls the page. workbox-window reloads only when the
            // page had a controller when it registered; a first visit that stays open until the
            // next deploy would otherwise wait forever after Reload.
            navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), {
              once: true,
            });
            void update(true);
          });
        },
      });
    });
    return () => {
      cancelled = true;
    };
  }, []);

  useEffect(() => {
    const onPrompt = (e: Event) => {
      e.preventDefault();
      setInstallEvent(e as InstallPromptEvent);
    };
    window.addEventListener('beforeinstallprompt', onPrompt);
    return () => window.removeEventListener('beforeinstallprompt', onPrompt);
  }, []);

  return (
    <>
      {updateReady && (
        <div className="toast" role="status">
          <span>A new version is available</span>
          <button type="button" className="button button--small" onClick={updateReady}>
            Reload
          </button>
        </div>
      )}
      {installEvent && (
        <button
          type="button"
          className="button button--small install-button"
          onClick={() => {
            void installEvent.prompt();
            setInstallEvent(null);
          }}
        >
          Install the app
        </button>
      )}
    </>
  );
}
