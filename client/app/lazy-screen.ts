import { createElement, lazy, type ComponentType } from 'react';
import { ScreenErrorBoundary } from './screen-error-boundary';

type ScreenModule = { default: ComponentType };

/**
 * A lazily loaded screen that renders at once when its chunk is already loaded. React.lazy alone
 * suspends on its first render even then, and a suspended screen is revealed only after React's
 * fallback throttle (300 ms): preloading the chunk while the session or the database opens, then
 * rendering it directly, saves that on every cold start. Each screen sits in its own error
 * boundary, so a chunk that cannot load says so with a Reload action.
 */
export function screen(load: () => Promise<ScreenModule>): { Screen: ComponentType; preload: () => Promise<unknown> } {
  let loaded: ComponentType | undefined;
  let pending: Promise<ScreenModule> | undefined;
  const preload = () =>
    (pending ??= load().then(
      (m) => {
        loaded = m.default;
        return m;
      },
      (err: unknown) => {
        pending = undefined; // a later render may retry (e.g. back online)
        throw err;
      },
    ));
  const Lazy = lazy(preload);
  function Screen() {
    return createElement(ScreenErrorBoundary, null, loaded ? createElement(loaded) : createElement(Lazy));
  }
  return { Screen, preload };
}
