/**
 * Identifier rules. User, gig and other document ids are random tokens of letters, digits and
 * dashes, never an underscore or a dot, so the composite ids below stay unambiguous.
 */

export const ID_PATTERN = /^[A-Za-z0-9-]{6,64}$/;

/** Conversation id: the two user ids sorted and joined by an underscore (SPEC.md §3). */
export function conversationIdFor(userA: string, userB: string): string {
  return [userA, userB].sort().join('_');
}

/** The two participants of a conversation id, or undefined when it is not a valid id. */
export function participantsOf(conversationId: string): [string, string] | undefined {
  const parts = conversationId.split('_');
  if (parts.length !== 2) return undefined;
  const [a, b] = parts as [string, string];
  if (!ID_PATTERN.test(a) || !ID_PATTERN.test(b) || a >= b) return undefined;
  return [a, b];
}

/**
 * One application per applicant and gig: the id is derived from both, so two offline devices
 * applying to the same gig write the same document and the server sees the duplicate.
 */
export function applicationIdFor(gigId: string, applicantId: string): string {
  return `${gigId}.${applicantId}`;
}

/** A random id for a new document, from a caller-supplied source of random bytes. */
export function newId(randomBytes: (n: number) => Uint8Array): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(20);
  let out = '';
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return out;
}
