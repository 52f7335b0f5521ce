import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { preloadScreen, screens } from './screens';
import { Link, Route, Routes, useLocation } from 'react-router-dom';
import { PATHS, routesOf } from '../../../shared/routes';
import { DataProvider, RequireData } from '../../data/data-provider';
import { BoardPreview, previewGate } from '../../features/landing/board-preview';
import { Loading } from '../../ui/loading';
import { useSession } from '../session';
import { EndedSession } from './ended-session';
import { SignedInLayout } from './layout';

function NotFound() {
  return (
    <main className="page narrow">
      <h1>Page not found</h1>
      <p>There is nothing at this address.</p>
      <Link className="button" to={PATHS.landing}>
        Go to the gig board
      </Link>
    </main>
  );
}

/** Everything behind sign-in: the user's database, replication, the layout and the protected routes. */
export default function SignedInArea() {
  const { user, signOutLocally, onEnded } = useSession();
  const { pathname } = useLocation();
  // The first screen's chunk loads while the database opens, and both are shown together: a lazy
  // screen that suspends after the data is open would cost React's fallback throttle (300 ms).
  const [screenReady, setScreenReady] = useState(false);
  // Only the first screen: later navigation uses Suspense as usual.
  const [firstPath] = useState(pathname);
  useEffect(() => {
    let live = true;
    void preloadScreen(firstPath).then(() => live && setScreenReady(true));
    return () => {
      live = false;
    };
  }, [firstPath]);
  // The server ended the session by itself (a 401, or the check at start, session.tsx): settled
  // inside the data (EndedSession); before it is there, signed out without deleting anything.
  const settle = useRef<(() => void) | null>(null);
  const onUnauthorized = useCallback(() => (settle.current ?? signOutLocally)(), [signOutLocally]);
  useEffect(() => {
    onEnded.current = onUnauthorized;
    return () => {
      onEnded.current = null;
    };
  }, [onEnded, onUnauthorized]);
  // A reload of the board with its copy: the data opens once the copy is drawn.
  const userId = user?.id;
  const gate = useMemo(() => (userId && firstPath === PATHS.landing ? previewGate(userId) : null), [userId, firstPath]);
  if (!user) return <Loading />;
  return (
    <DataProvider userId={user.id} onUnauthorized={onUnauthorized} openAfter={gate?.opened}>
      <EndedSession settle={settle} />
      <SignedInLayout>
        <RequireData
          ready={screenReady}
          fallback={
            pathname === PATHS.landing ? (
              <BoardPreview userId={user.id} onPainted={gate?.painted} />
            ) : (
              <Loading label="Opening your data…" />
            )
          }
        >
          <Suspense fallback={<Loading />}>
            <Routes>
              {routesOf('signed-in').map(({ path, screen }) => {
                const Screen = screens[screen].Screen;
                return <Route key={path} path={path} element={<Screen />} />;
              })}
              <Route path="*" element={<NotFound />} />
            </Routes>
          </Suspense>
        </RequireData>
      </SignedInLayout>
    </DataProvider>
  );
}
