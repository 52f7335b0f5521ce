import { Link, NavLink, Outlet } from 'react-router-dom';
import { useSession } from './session';

/**
 * The header of every public page: the logo back to /, the public pages, and the way in. A
 * signed-in visitor is offered the app itself rather than a login they do not need.
 */
export function PublicHeader() {
  const { user } = useSession();
  return (
    <header className="public-header">
      <nav className="public-nav" aria-label="Site">
        <Link to="/" className="brand">
          <img src="/icons/icon-192.png" alt="" width="28" height="28" />
          Creative Gigs
        </Link>
        <div className="public-nav__links">
          <NavLink to="/teaser">Gigs</NavLink>
          <NavLink to="/manifesto">Manifesto</NavLink>
          <NavLink to="/version1">Community</NavLink>
          {user ? (
            <Link to="/landing" className="button button--small">
              Open the app
            </Link>
          ) : (
            <>
              <NavLink to="/login">Log in</NavLink>
              <NavLink to="/signup" className="button button--small">
                Sign up
              </NavLink>
            </>
          )}
        </div>
      </nav>
    </header>
  );
}

/** The frame of the public routes: the header, then the page. */
export function PublicLayout() {
  return (
    <div className="public">
      <PublicHeader />
      <Outlet />
    </div>
  );
}
