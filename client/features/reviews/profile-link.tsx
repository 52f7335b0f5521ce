import { Link } from 'react-router-dom';
import { profilePath } from '../../../shared/routes';
import { useUser } from '../../data/queries';

/**
 * A member's name linking to their public profile, `/u/{username}`. The username comes from the
 * caller or from what this device holds of the member (their public profile);
 * without one the name is plain text. The link carries the member's id, so the profile page can
 * tell when the name now belongs to somebody else.
 */
export function ProfileLink({ userId, name, username }: { userId: string; name: string; username?: string }) {
  const user = useUser(userId);
  const handle = username ?? user.data?.username;
  if (!handle) return <>{name}</>;
  return (
    <Link to={profilePath(handle)} state={{ userId }} className="profile-link">
      {name}
    </Link>
  );
}
