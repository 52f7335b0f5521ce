import { PROFILE_MESSAGES, profilePageSchema, type ProfilePage } from '../../shared/profiles';
import { api, ApiError } from './api';

/** `GET /api/profiles/:username` (decision 032): a member's public profile page, parsed; `before` pages on. */
export async function fetchProfilePage(username: string, before?: string): Promise<ProfilePage> {
  const path = `/api/profiles/${encodeURIComponent(username)}${before ? `?before=${encodeURIComponent(before)}` : ''}`;
  const parsed = profilePageSchema.safeParse(await api<unknown>('GET', path));
  if (!parsed.success) throw new Error(PROFILE_MESSAGES.loadFailed);
  return parsed.data;
}

/**
 * Whether another member holds `username` already: true or false when the server said so,
 * undefined when it could not be asked (offline): the server judges the name when the profile
 * arrives either way.
 */
export async function usernameTakenByOther(username: string, userId: string): Promise<boolean | undefined> {
  try {
    return (await fetchProfilePage(username.trim())).profile.id !== userId;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return false;
    return undefined;
  }
}
