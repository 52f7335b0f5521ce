import { routeFor, type ScreenName } from '../../../shared/routes';
import { screen } from '../lazy-screen';

/**
 * Each signed-in screen; app.tsx starts loading the first one's chunk with the signed-in area's,
 * and the area shows it once the database is open too (see lazy-screen.ts).
 */
export const screens: Record<ScreenName<'signed-in'>, ReturnType<typeof screen>> = {
  landing: screen(() => import('../../features/landing/landing-page')),
  createGig: screen(() => import('../../features/create-gig/create-gig-page')),
  profile: screen(() => import('../../features/profile/profile-page')),
  setupPortfolio: screen(() => import('../../features/setup-portfolio/setup-portfolio-page')),
  applications: screen(() => import('../../features/applications/applications-page')),
  notifications: screen(() => import('../../features/notifications/notifications-page')),
  basket: screen(() => import('../../features/basket/basket-page')),
  settings: screen(() => import('../../features/settings/settings-page')),
  gig: screen(() => import('../../features/gigs/gig-page')),
  exchange: screen(() => import('../../features/chat/exchange-page')),
  paymentSuccess: screen(() => import('../../features/payments/payment-success-page')),
  operatorDisputes: screen(() => import('../../features/operator/operator-disputes-page')),
  publicProfile: screen(() => import('../../features/reviews/public-profile-page')),
};

/** Fetches the chunk of the screen at `pathname`; resolves either way (the screen reports a failure when it renders). */
export function preloadScreen(pathname: string): Promise<unknown> {
  const route = routeFor(pathname);
  return route?.area === 'signed-in' ? screens[route.screen].preload().catch(() => undefined) : Promise.resolve();
}
