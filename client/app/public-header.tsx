import { Link, NavLink, Outlet } from 'react-router-dom';
import { useSession } from './session';
import { PATHS } from '../../shared/routes';

/**
 * The header of every public page: the logo back to /, the public pages, and the way in. A
 * signed-in visitor is offered the app itself rather than a login they do not need.
 */
export function PublicHeader() {
  const { user } = useSession();
  return (
    <header className="public-header">
      <nav className="public-nav" aria-label="Site">
        <Link to={PATHS.home} className="brand">
          <img src="/icons/icon-192.png" alt="" width="28" height="28" />
          Creative Gigs
        </Link>
        <div className="public-nav__links">
          <NavLink to={PATHS.teaser}>Gigs</NavLink>
          <NavLink to={PATHS.manifesto}>Manifesto</NavLink>
          <NavLink to={PATHS.community}>Community</NavLink>
          {user ? (
            <Link to={PATHS.landing} className="button button--small">
              Open the app
            </Link>
          ) : (
            <>
              <NavLink to={PATHS.login}>Log in</NavLink>
              <NavLink to={PATHS.signup} className="button button--small">
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
