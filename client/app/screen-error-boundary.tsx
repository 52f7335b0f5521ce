import { Component, type ErrorInfo, type ReactNode } from 'react';

export const SCREEN_FAILED = 'This screen could not be loaded. Check your connection, then reload.';

/**
 * Wraps each lazily loaded screen: a chunk that fails to load (the network dropped before the
 * service worker had it, or a new version replaced it) or a screen that throws shows a message
 * with a Reload action, instead of leaving the whole app blank.
 */
export class ScreenErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.warn('A screen failed to load or render', error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="screen-error" role="alert">
        <p>{SCREEN_FAILED}</p>
        <button type="button" className="button" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    );
  }
}
