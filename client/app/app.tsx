import { lazy, Suspense, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { redirectFor } from '../../shared/routes';
import { PwaPrompts } from './pwa';
import { SessionProvider, useSession } from './session';

// Each public page is its own chunk; the signed-in area (RxDB, replication) is one more.
const WaitlistPage = lazy(() => import('../features/waitlist/waitlist-page'));
const TeaserPage = lazy(() => import('../features/teaser/teaser-page'));
const ManifestoPage = lazy(() => import('../features/manifesto/manifesto-page'));
const CommunityPage = lazy(() => import('../features/community/community-page'));
const SignupPage = lazy(() => import('../features/auth/signup-page'));
const LoginPage = lazy(() => import('../features/auth/login-page'));
const SignedInArea = lazy(() => import('./signed-in/signed-in-area'));

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      {label}
    </div>
  );
}

/** Applies the session redirect rules of SPEC.md §2 (shared/routes.ts) before anything renders. */
function Guarded({ children }: { children: ReactNode }) {
  const { user } = useSession();
  const location = useLocation();
  if (user === undefined) return <Loading />;
  const target = redirectFor(location.pathname, user !== null, location.search);
  if (target) return <Navigate to={target} replace />;
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
              <Route path="/" element={<WaitlistPage />} />
              <Route path="/waitlist-signup" element={<WaitlistPage />} />
              <Route path="/teaser" element={<TeaserPage />} />
              <Route path="/manifesto" element={<ManifestoPage />} />
              <Route path="/version1" element={<CommunityPage />} />
              <Route path="/signup" element={<SignupPage />} />
              <Route path="/login" element={<LoginPage />} />
              <Route path="/*" element={<SignedInArea />} />
            </Routes>
          </Suspense>
        </Guarded>
      </SessionProvider>
    </BrowserRouter>
  );
}
