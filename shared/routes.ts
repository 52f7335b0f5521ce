import { LOGGED_OUT_MESSAGES as M } from './validation/logged-out';

/** Where a route lives: open to everyone, or behind sign-in (the user's database, replication). */
export type RouteArea = 'public' | 'signed-in';

/**
 * The one table of routes (docs/product.md §2): the client's router renders it, the nav takes its
 * labelled entries in order, the session rules read its areas, and the bundle benchmark maps each
 * route to its screen's chunk. `screen` names the lazily loaded screen in the client's screen
 * tables (client/app/app.tsx for public screens, client/app/signed-in/screens.ts for the rest).
 */
export const ROUTES = [
  { path: '/', screen: 'waitlist', area: 'public' },
  { path: '/waitlist-signup', screen: 'waitlist', area: 'public' },
  { path: '/teaser', screen: 'teaser', area: 'public' },
  { path: '/manifesto', screen: 'manifesto', area: 'public' },
  { path: '/version1', screen: 'community', area: 'public' },
  { path: '/signup', screen: 'signup', area: 'public' },
  { path: '/login', screen: 'login', area: 'public' },
  /** Signing up asks everyone to accept the terms, so they are public too. */
  { path: '/terms', screen: 'terms', area: 'public' },
  { path: '/landing', screen: 'landing', area: 'signed-in', nav: 'Home' },
  { path: '/create-gig', screen: 'createGig', area: 'signed-in', nav: 'Create Gig' },
  { path: '/basket', screen: 'basket', area: 'signed-in', nav: 'My Gigs' },
  { path: '/applications', screen: 'applications', area: 'signed-in', nav: 'Applications' },
  { path: '/notifications', screen: 'notifications', area: 'signed-in', nav: 'Notifications' },
  { path: '/profile', screen: 'profile', area: 'signed-in', nav: 'Profile' },
  { path: '/settings', screen: 'settings', area: 'signed-in', nav: 'Settings' },
  { path: '/setup-portfolio', screen: 'setupPortfolio', area: 'signed-in' },
  { path: '/exchange/:userId', screen: 'exchange', area: 'signed-in' },
  { path: '/payment/success', screen: 'paymentSuccess', area: 'signed-in' },
  { path: '/gig/:gigId', screen: 'gig', area: 'signed-in' },
  /** Operators only (OPERATOR_EMAILS, decision 031): to anyone else the page finds nothing there. */
  { path: '/operator/disputes', screen: 'operatorDisputes', area: 'signed-in' },
  /** A member's public profile (docs/decisions/032-reviews-and-profiles.md). */
  { path: '/u/:username', screen: 'publicProfile', area: 'signed-in' },
] as const satisfies readonly { path: string; screen: string; area: RouteArea; nav?: string }[];

export type Route = (typeof ROUTES)[number];
export type ScreenName<A extends RouteArea = RouteArea> = Extract<Route, { area: A }>['screen'];

/** The routes of one area, in table order. */
export const routesOf = <A extends RouteArea>(area: A): Extract<Route, { area: A }>[] =>
  ROUTES.filter((r): r is Extract<Route, { area: A }> => r.area === area);

/** The nav bar's entries, in order. */
export const NAV_ROUTES = ROUTES.filter((r): r is Extract<Route, { nav: string }> => 'nav' in r);

/** The route `pathname` opens (`:param` segments match any one segment), if any. */
export function routeFor(pathname: string): Route | undefined {
  const segments = normalize(pathname).split('/');
  return ROUTES.find((r) => {
    const pattern = r.path.split('/');
    return (
      pattern.length === segments.length &&
      pattern.every((p, i) => (p.startsWith(':') ? segments[i] !== '' : p === segments[i]))
    );
  });
}

/** Paths by name, for links and redirects. */
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
  notifications: '/notifications',
  basket: '/basket',
  paymentSuccess: '/payment/success',
  settings: '/settings',
  profile: '/profile',
  operatorDisputes: '/operator/disputes',
  /** Not a route of its own: some screens navigate here; it redirects to /landing (docs/architecture.md). */
  landingAlias: '/landingpage',
} as const satisfies Record<string, string>;

export const exchangePath = (userId: string) => `/exchange/${encodeURIComponent(userId)}`;
export const gigPath = (gigId: string) => `/gig/${encodeURIComponent(gigId)}`;
/** A username is any text (docs/product.md §5.3): every character that means something in a path is escaped. */
export const profilePath = (username: string) => `/u/${encodeURIComponent(username)}`;
/** The review panel of one piece of work, in My Gigs on the side the signed-in user was on. */
export const reviewPath = (applicationId: string) => `${PATHS.basket}?review=${encodeURIComponent(applicationId)}`;

/** Paths a signed-out user may open: the public routes of the table. */
export const PUBLIC_PATHS: readonly string[] = routesOf('public').map((r) => r.path);

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
