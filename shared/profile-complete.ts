import type { User } from './schemas/user';

/**
 * A profile is complete once setup has given it a username (setup is one-time, docs/product.md
 * §2). Kept apart from the profile schemas so that the screens asking it (the board's create-gig
 * panel, a gig's Apply) do not load zod before their first paint (decision 008).
 */
export function isProfileComplete(
  user: Pick<User, 'username' | 'location' | 'creativeNiche' | 'subcategory' | 'portfolioLink'> | undefined | null,
): boolean {
  return Boolean(user?.username && user.location && user.creativeNiche && user.subcategory && user.portfolioLink);
}
