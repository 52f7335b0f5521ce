import type { User } from '../../../shared/schemas/user';
import type { DataContextValue } from '../../data/data-provider';

/**
 * Writes fields of the signed-in user's own profile to the local database (the profile page's
 * autosave and the portfolio setup); replication takes them to the server, which validates them
 * again. Throws when the own record is not held on this device.
 */
export async function saveProfileFields({ local, userId }: DataContextValue, change: Partial<User>): Promise<void> {
  if (!(await local.patch('users', userId, change))) throw new Error('Your profile is not on this device yet.');
}
