import type { StoredDoc } from '../store/store';

/** Fields of the user record that only its owner sees. */
const PRIVATE_FIELDS = [
  'email',
  'termsAccepted',
  'termsAcceptedAt',
  'createdAt',
  'stripeAccountId',
  'payoutStatus',
] as const;
const PUBLIC_FIELDS = [
  'id',
  'name',
  'username',
  'location',
  'creativeNiche',
  'subcategory',
  'portfolioLink',
  'bio',
  'reputation',
  'updatedAt',
] as const;

/** The user's own record, as replicated to them and answered by the auth routes. */
export function ownUserView(doc: StoredDoc): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of [...PUBLIC_FIELDS, ...PRIVATE_FIELDS]) if (doc[f] !== undefined) out[f] = doc[f];
  return out;
}

/** Another user's public profile: never the email or payout ids. */
export function publicProfileView(doc: StoredDoc): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of PUBLIC_FIELDS) if (doc[f] !== undefined) out[f] = doc[f];
  return out;
}

/** A new member's user record, as sign-up and the operator command (`npm run operator`) create it. */
export function newUserRecord(input: { id: string; name: string; email: string; now: number }) {
  const { id, name, email, now } = input;
  return {
    id,
    name,
    email,
    termsAccepted: true,
    termsAcceptedAt: now,
    createdAt: now,
    updatedAt: now,
    payoutStatus: 'none',
    _deleted: false,
  };
}
