import { Suspense, useCallback, useEffect, useState } from 'react';
import { preloadScreen, screens } from './screens';
import { Link, Route, Routes, useLocation } from 'react-router-dom';
import { DataProvider, RequireData } from '../../data/data-provider';
import { BoardSkeleton } from '../../features/landing/board-controls';
import { Loading } from '../../ui/loading';
import { useSession } from '../session';
import { SignedInLayout } from './layout';

const LandingPage = screens['/landing'].Screen;
const CreateGigPage = screens['/create-gig'].Screen;
const ProfilePage = screens['/profile'].Screen;
const SetupPortfolioPage = screens['/setup-portfolio'].Screen;
const ApplicationsPage = screens['/applications'].Screen;
const NotificationsPage = screens['/notifications'].Screen;
const BasketPage = screens['/basket'].Screen;
const SettingsPage = screens['/settings'].Screen;
const GigPage = screens['/gig'].Screen;
const ExchangePage = screens['/exchange'].Screen;
const PaymentSuccessPage = screens['/payment'].Screen;

function NotFound() {
  return (
    <main className="page narrow">
      <h1>Page not found</h1>
      <p>There is nothing at this address.</p>
      <Link className="button" to="/landing">
        Go to the gig board
      </Link>
    </main>
  );
}

/** Everything behind sign-in: the user's database, replication, the layout and the protected routes. */
export default function SignedInArea() {
  const { user, signOutLocally } = useSession();
  const { pathname } = useLocation();
  // The first screen's chunk loads while the database opens, and both are shown together: a lazy
  // screen that suspends after the data is open would cost React's fallback throttle (300 ms).
  const [screenReady, setScreenReady] = useState(false);
  useEffect(() => {
    let live = true;
    void preloadScreen(pathname).then(() => live && setScreenReady(true));
    return () => {
      live = false;
    };
    // Only the first screen: later navigation uses Suspense as usual.
  }, []);
  const onUnauthorized = useCallback(() => signOutLocally(), [signOutLocally]);
  if (!user) return <Loading />;
  return (
    <DataProvider userId={user.id} onUnauthorized={onUnauthorized}>
      <SignedInLayout>
        <RequireData ready={screenReady} fallback={pathname === '/landing' ? <BoardSkeleton /> : <Loading label="Opening your data…" />}>
          <Suspense fallback={<Loading />}>
            <Routes>
              <Route path="/landing" element={<LandingPage />} />
              <Route path="/create-gig" element={<CreateGigPage />} />
              <Route path="/profile" element={<ProfilePage />} />
              <Route path="/setup-portfolio" element={<SetupPortfolioPage />} />
              <Route path="/applications" element={<ApplicationsPage />} />
              <Route path="/exchange/:userId" element={<ExchangePage />} />
              <Route path="/notifications" element={<NotificationsPage />} />
              <Route path="/basket" element={<BasketPage />} />
              <Route path="/payment/success" element={<PaymentSuccessPage />} />
              <Route path="/settings" element={<SettingsPage />} />
              <Route path="/gig/:gigId" element={<GigPage />} />
              <Route path="*" element={<NotFound />} />
            </Routes>
          </Suspense>
        </RequireData>
      </SignedInLayout>
    </DataProvider>
  );
}
