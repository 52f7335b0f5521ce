import { Suspense, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { redirectFor, routeFor, routesOf, signedOutNotice, type ScreenName } from '../../shared/routes';
import { screen } from './lazy-screen';
import { PublicLayout } from './public-header';
import { Loading } from '../ui/loading';
import { PwaPrompts } from './pwa';
import { SessionProvider, useSession } from './session';

// Each public page is its own chunk; the signed-in area (RxDB, replication) is one more.
const pages: Record<ScreenName<'public'>, ReturnType<typeof screen>> = {
  waitlist: screen(() => import('../features/waitlist/waitlist-page')),
  teaser: screen(() => import('../features/teaser/teaser-page')),
  manifesto: screen(() => import('../features/manifesto/manifesto-page')),
  community: screen(() => import('../features/community/community-page')),
  signup: screen(() => import('../features/auth/signup-page')),
  login: screen(() => import('../features/auth/login-page')),
  terms: screen(() => import('../features/terms/terms-page')),
};
const signedIn = screen(() => import('./signed-in/signed-in-area'));
/**
 * Loads the chunk of the page at `pathname`; main.tsx renders once it is in, so the first page
 * never suspends (see lazy-screen.ts). Resolves either way: a failure shows when the page renders.
 */
export function preloadFirstPage(pathname: string): Promise<unknown> {
  const route = routeFor(pathname);
  return (route?.area === 'public' ? pages[route.screen] : signedIn).preload().catch(() => undefined);
}

const SignedInArea = signedIn.Screen;

/** Applies the session redirect rules of docs/product.md §2 (shared/routes.ts) before anything renders. */
function Guarded({ children }: { children: ReactNode }) {
  const { user } = useSession();
  const location = useLocation();
  if (user === undefined) return <Loading />;
  const target = redirectFor(location.pathname, user !== null, location.search);
  if (target) {
    const notice = user === null ? signedOutNotice(location.pathname) : undefined;
    return <Navigate to={target} replace state={notice ? { notice } : undefined} />;
  }
  return <>{children}</>;
}

export function App() {
  return (
    <BrowserRouter>
      <SessionProvider>
        <PwaPrompts />
        <Guarded>
          <Suspense fallback={<Loading />}>
            <Routes>
              <Route element={<PublicLayout />}>
                {routesOf('public').map(({ path, screen }) => {
                  const Screen = pages[screen].Screen;
                  return <Route key={path} path={path} element={<Screen />} />;
                })}
              </Route>
              <Route path="/*" element={<SignedInArea />} />
            </Routes>
          </Suspense>
        </Guarded>
      </SessionProvider>
    </BrowserRouter>
  );
}
