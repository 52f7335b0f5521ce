import { lazy, Suspense, useCallback } from 'react';
import { Link, Route, Routes } from 'react-router-dom';
import { DataProvider } from '../../data/data-provider';
import { Loading } from '../app';
import { useSession } from '../session';
import { SignedInLayout } from './layout';

const LandingPage = lazy(() => import('../../features/landing/landing-page'));
const CreateGigPage = lazy(() => import('../../features/create-gig/create-gig-page'));
const ProfilePage = lazy(() => import('../../features/profile/profile-page'));
const Pending = lazy(() => import('../../features/placeholder/pending-screen'));

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
            <Route path="/setup-portfolio" element={<Pending title="Set up your portfolio" />} />
            <Route path="/applications" element={<Pending title="Applications" />} />
            <Route path="/exchange/:userId" element={<Pending title="Conversation" />} />
            <Route path="/notifications" element={<Pending title="Notifications" />} />
            <Route path="/basket" element={<Pending title="My Gigs" />} />
            <Route path="/payment/success" element={<Pending title="Payment" />} />
            <Route path="/settings" element={<Pending title="Settings" />} />
            <Route path="/gig/:gigId" element={<Pending title="Gig" />} />
            <Route path="*" element={<NotFound />} />
          </Routes>
        </Suspense>
      </SignedInLayout>
    </DataProvider>
  );
}
