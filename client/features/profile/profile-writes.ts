import type { User } from '../../../shared/schemas/user';
import type { DataContextValue } from '../../data/data-provider';

/**
 * Writes fields of the signed-in user's own profile to the local database (the profile page's
 * autosave and the portfolio setup); replication takes them to the server, which validates them
 * again. Throws when the own record is not held on this device.
 */
export async function saveProfileFields({ db, outbox, userId }: DataContextValue, change: Partial<User>): Promise<void> {
  const doc = await db.users.findOne(userId).exec();
  if (!doc) throw new Error('Your profile is not on this device yet.');
  outbox.track('users', userId);
  await doc.incrementalPatch({ ...change, updatedAt: Date.now() });
}
