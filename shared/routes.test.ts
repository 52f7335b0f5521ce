import { describe, expect, it } from 'vitest';
import {
  exchangePath,
  gigPath,
  NAV_ROUTES,
  PATHS,
  PUBLIC_PATHS,
  redirectFor,
  routeFor,
  ROUTES,
  signedOutNotice,
} from './routes';

describe('docs/product.md §2 session redirect rules, for every route', () => {
  const publicRoutes = ['/', '/waitlist-signup', '/teaser', '/manifesto', '/version1', '/terms'];
  const authRoutes = ['/login', '/signup'];
  const protectedRoutes = [
    '/setup-portfolio',
    '/landing',
    '/create-gig',
    '/applications',
    '/exchange/abc123',
    '/notifications',
    '/basket',
    '/payment/success',
    '/settings',
    '/profile',
    '/gig/gig123',
    '/landingpage',
    '/no-such-page',
  ];

  it.each(publicRoutes)('signed out, %s stays public', (p) => expect(redirectFor(p, false)).toBeNull());
  it.each(authRoutes)('signed out, %s stays', (p) => expect(redirectFor(p, false)).toBeNull());
  it.each(protectedRoutes)('signed out, %s → /login', (p) => expect(redirectFor(p, false)).toBe('/login'));

  it.each(authRoutes)('signed in, %s → /landing', (p) => expect(redirectFor(p, true)).toBe('/landing'));
  it.each([...publicRoutes, ...protectedRoutes.filter((p) => p !== '/landingpage')])('signed in, %s stays', (p) =>
    expect(redirectFor(p, true)).toBeNull(),
  );

  it('/landingpage?openModal=true → /landing?openModal=true for a signed-in user', () => {
    expect(redirectFor('/landingpage', true, '?openModal=true')).toBe('/landing?openModal=true');
  });
  it('a trailing slash does not dodge the rules', () => {
    expect(redirectFor('/landing/', false)).toBe('/login');
    expect(redirectFor('/login/', true)).toBe('/landing');
  });
});

describe('what the login page says to a visitor sent from a page that needs a session (docs/product.md §8)', () => {
  it.each([
    ['/setup-portfolio', 'You must be logged in to complete profile setup'],
    ['/create-gig', 'You must be logged in to create a gig'],
    ['/create-gig/', 'You must be logged in to create a gig'],
    ['/exchange/abc123', 'Please log in to start a conversation'],
    ['/gig/gig123', 'Please log in or create an account to apply for gigs'],
  ])('%s → %s', (path, notice) => expect(signedOutNotice(path)).toBe(notice));

  it.each(['/landing', '/basket', '/settings', '/no-such-page', '/exchange'])('%s has no notice of its own', (path) =>
    expect(signedOutNotice(path)).toBeUndefined(),
  );
});

describe('the route table', () => {
  it('names every path once, and every named path is a route (or the /landingpage alias)', () => {
    const paths = ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const path of Object.values(PATHS)) if (path !== PATHS.landingAlias) expect(paths).toContain(path);
    expect(PUBLIC_PATHS).toEqual([
      '/',
      '/waitlist-signup',
      '/teaser',
      '/manifesto',
      '/version1',
      '/signup',
      '/login',
      '/terms',
    ]);
  });

  it('gives the nav its entries in order', () => {
    expect(NAV_ROUTES.map((r) => [r.path, r.nav])).toEqual([
      ['/landing', 'Home'],
      ['/create-gig', 'Create Gig'],
      ['/basket', 'My Gigs'],
      ['/applications', 'Applications'],
      ['/notifications', 'Notifications'],
      ['/profile', 'Profile'],
      ['/settings', 'Settings'],
    ]);
  });

  it.each([
    ['/landing', 'landing'],
    ['/landing/', 'landing'],
    ['/gig/g1', 'gig'],
    [gigPath('a/b c'), 'gig'],
    [exchangePath('u 1'), 'exchange'],
    ['/payment/success', 'paymentSuccess'],
    ['/', 'waitlist'],
  ])('finds the route of %s', (path, screen) => expect(routeFor(path)?.screen).toBe(screen));

  it.each(['/gig', '/gig/', '/gig/a/b', '/payment', '/nowhere'])('finds no route for %s', (path) =>
    expect(routeFor(path)).toBeUndefined(),
  );
});
