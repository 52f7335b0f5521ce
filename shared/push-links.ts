/**
 * What a click on a push notification may open, shared by the service worker and the app's
 * window. No imports: the app's first page loads this.
 */

/** What the service worker posts to an open window when its notification is clicked: open `url` there. */
export const OPEN_URL_MESSAGE = 'gigs:open-url';
export type OpenUrlMessage = { type: typeof OPEN_URL_MESSAGE; url: string };

/** A path of this app: one slash, never `//host` or a scheme. */
export function isAppPath(url: unknown): url is string {
  return (
    typeof url === 'string' && url.length <= 300 && url.startsWith('/') && !url.startsWith('//') && !url.includes('\\')
  );
}
