import { LOGGED_OUT_MESSAGES as M } from './validation/logged-out';

/**
 * The one table of routes (docs/product.md §2) and the session redirect rules, shared by the client's
 * router and its tests.
 */
export const PATHS = {
  home: '/',
  waitlist: '/waitlist-signup',
  teaser: '/teaser',
  signup: '/signup',
  login: '/login',
  terms: '/terms',
  manifesto: '/manifesto',
  community: '/version1',
  setupPortfolio: '/setup-portfolio',
  landing: '/landing',
  createGig: '/create-gig',
  applications: '/applications',
  exchange: '/exchange/:userId',
  notifications: '/notifications',
  basket: '/basket',
  paymentSuccess: '/payment/success',
  settings: '/settings',
  profile: '/profile',
  gig: '/gig/:gigId',
  /** Not a declared route: some screens navigate here; it redirects to /landing (docs/architecture.md). */
  landingAlias: '/landingpage',
} as const;

export const exchangePath = (userId: string) => `/exchange/${encodeURIComponent(userId)}`;
export const gigPath = (gigId: string) => `/gig/${encodeURIComponent(gigId)}`;

/**
 * Paths a signed-out user may open: docs/product.md's list plus /teaser, which its public table declares
 * (docs/architecture.md: the public table wins), and /terms, which signing up asks everyone to accept.
 */
export const PUBLIC_PATHS: readonly string[] = ['/login', '/signup', '/', '/waitlist-signup', '/manifesto', '/version1', '/teaser', '/terms'];

/** Public pages that a signed-in user is sent away from (docs/product.md §2 session redirect rules). */
const AUTH_PAGES = new Set(['/login', '/signup']);

function normalize(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

/**
 * What the login page says to a signed-out visitor sent there from a page that needs a session,
 * where docs/product.md §8 has the words for it (setup, creating a gig, conversations, applying).
 */
export function signedOutNotice(pathname: string): string | undefined {
  const path = normalize(pathname);
  if (path === PATHS.setupPortfolio) return M.setup;
  if (path === PATHS.createGig) return M.createGig;
  if (path.startsWith('/exchange/')) return M.converse;
  if (path.startsWith('/gig/')) return M.apply;
  return undefined;
}

/**
 * Where the session rules send a user who opens `pathname`, or null to stay:
 * - signed in on /login or /signup → /landing;
 * - signed out anywhere but the public pages → /login;
 * - /landingpage (with its query) → /landing for a signed-in user.
 */
export function redirectFor(pathname: string, signedIn: boolean, search = ''): string | null {
  const path = normalize(pathname);
  if (signedIn) {
    if (AUTH_PAGES.has(path)) return PATHS.landing;
    if (path === PATHS.landingAlias) return PATHS.landing + search;
    return null;
  }
  return PUBLIC_PATHS.includes(path) ? null : PATHS.login;
}
