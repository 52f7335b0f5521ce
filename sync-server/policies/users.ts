import { PROFILE_MESSAGES } from '../../shared/profiles';
import { validatePortfolioSetup } from '../../shared/validation/portfolio';
import { validateProfile } from '../../shared/validation/profile';
import { firstError } from '../../shared/validation/types';
import type { DocWrite } from '../store/store';
import { stamp, str } from '../domain/documents';
import { usernameWrites } from '../reviews/usernames';
import { refuse, type Policy } from './types';

const SETUP_FIELDS = ['username', 'location', 'creativeNiche', 'subcategory', 'portfolioLink'] as const;
const EDITABLE = ['name', 'username', 'location', 'creativeNiche', 'subcategory', 'portfolioLink', 'bio'] as const;

/**
 * A user edits only their own profile fields. Email, payout ids, terms and dates are the server's:
 * whatever the client sent for them is ignored.
 */
export const userPolicy: Policy<'users'> = ({ read, actor, current, incoming, deleting, now }) => {
  if (deleting) return refuse('Accounts cannot be deleted from the app.');
  if (!current || current.id !== actor.id) return refuse('You can only edit your own profile.');
  const next: Record<string, unknown> = { ...current };
  for (const field of EDITABLE) {
    const value = incoming[field];
    if (value === undefined || value === '') delete next[field];
    else next[field] = str(value).trim();
  }
  const values = {
    name: str(next.name),
    username: str(next.username),
    location: str(next.location),
    creativeNiche: str(next.creativeNiche),
    subcategory: str(next.subcategory),
    portfolioLink: str(next.portfolioLink),
    bio: str(next.bio),
  };
  // Before setup only the name exists; once setup has run every setup field stays required.
  const setupDone = Boolean(current.username) || SETUP_FIELDS.some((f) => Boolean(values[f]));
  const message = setupDone
    ? firstError({ ...validateProfile(values), ...validatePortfolioSetup(values) })
    : values.name.trim()
      ? undefined
      : 'Name is required';
  if (message) return refuse(message);
  // One member per username: it names their public profile, /u/{username} (decision 032).
  const claims = usernameWrites(read, actor.id, current.username, values.username || undefined);
  if (claims === 'taken') return refuse(PROFILE_MESSAGES.usernameTaken);
  next.updatedAt = stamp(now, current);
  const writes: DocWrite[] = [{ collection: 'users', doc: next as DocWrite['doc'] }, ...claims];
  if (values.portfolioLink && values.portfolioLink !== current.portfolioLink) {
    writes.push({
      collection: 'portfolios',
      doc: { id: actor.id, portfolioLink: values.portfolioLink, _deleted: false },
    });
  }
  return { ok: true, writes };
};
