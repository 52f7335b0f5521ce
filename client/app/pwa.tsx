import { useEffect, useState } from 'react';

type InstallPromptEvent = Event & { prompt(): Promise<void>; userChoice: Promise<{ outcome: string }> };

/**
 * Service worker with the `prompt` update flow: a waiting new version is announced with a Reload
 * button and never activated behind the user's back (a silent reload could lose a form). The
 * install button appears only when the browser offers `beforeinstallprompt`.
 */
export function PwaPrompts() {
  const [updateReady, setUpdateReady] = useState<(() => void) | null>(null);
  const [installEvent, setInstallEvent] = useState<InstallPromptEvent | null>(null);

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
