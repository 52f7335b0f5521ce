import { lazy, Suspense, useCallback } from 'react';
import { Link, Route, Routes } from 'react-router-dom';
import { DataProvider } from '../../data/data-provider';
import { Loading } from '../app';
import { useSession } from '../session';
import { SignedInLayout } from './layout';

const LandingPage = lazy(() => import('../../features/landing/landing-page'));
const CreateGigPage = lazy(() => import('../../features/create-gig/create-gig-page'));
const ProfilePage = lazy(() => import('../../features/profile/profile-page'));
const SetupPortfolioPage = lazy(() => import('../../features/setup-portfolio/setup-portfolio-page'));
const ApplicationsPage = lazy(() => import('../../features/applications/applications-page'));
const NotificationsPage = lazy(() => import('../../features/notifications/notifications-page'));
const BasketPage = lazy(() => import('../../features/basket/basket-page'));
const SettingsPage = lazy(() => import('../../features/settings/settings-page'));
const GigPage = lazy(() => import('../../features/gigs/gig-page'));
const ExchangePage = lazy(() => import('../../features/chat/exchange-page'));
const PaymentSuccessPage = lazy(() => import('../../features/payments/payment-success-page'));

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
  const onUnauthorized = useCallback(() => signOutLocally(), [signOutLocally]);
  if (!user) return <Loading />;
  return (
    <DataProvider userId={user.id} onUnauthorized={onUnauthorized} fallback={<Loading label="Opening your data…" />}>
      <SignedInLayout>
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
      </SignedInLayout>
    </DataProvider>
  );
}
