/**
 * Identifier rules. User, gig and other document ids are random tokens of letters, digits and
 * dashes, never an underscore or a dot, so the composite ids below stay unambiguous.
 *
 * An id is also never a name a plain JavaScript object already answers to (`toString`,
 * `constructor`, `hasOwnProperty`…): code keyed by id in a plain object, RxDB's replication among
 * it, would read the built-in member instead of the document and fail (decision 010).
 */

/**
 * Members of Object.prototype in any engine, past ones included (Firefox had `toSource`, `watch`
 * and `unwatch`), so a device whose engine has them is covered even when this one has not; the
 * running engine's own names are added below.
 */
const BUILT_IN_NAMES = [
  'constructor',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  'toString',
  'valueOf',
  'toSource',
  'watch',
  'unwatch',
  '__proto__',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
];

/** Names an id may never be: every name a plain object answers to. */
export const RESERVED_IDS: ReadonlySet<string> = new Set([
  ...BUILT_IN_NAMES,
  ...Object.getOwnPropertyNames(Object.prototype),
]);

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** 6 to 64 letters, digits and dashes, and not a reserved name. */
export const ID_PATTERN = new RegExp(`^(?!(?:${[...RESERVED_IDS].map(escape).join('|')})$)[A-Za-z0-9-]{6,64}$`);

export function isId(value: unknown): value is string {
  return typeof value === 'string' && ID_PATTERN.test(value);
}

/** Conversation id: the two user ids sorted and joined by an underscore (docs/product.md §3). */
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

/** The gig and applicant of an application id, or undefined when it is not a valid one. */
export function applicationIdParts(applicationId: string): { gigId: string; applicantId: string } | undefined {
  const parts = applicationId.split('.');
  if (parts.length !== 2 || !parts.every((p) => ID_PATTERN.test(p))) return undefined;
  return { gigId: parts[0]!, applicantId: parts[1]! };
}

/**
 * Whether `id` has the shape of an id of that collection: an application's is two ids joined by
 * `.`, a conversation's two ids joined by `_`, every other one a plain id.
 */
export function isDocumentId(collection: string, id: unknown): id is string {
  if (typeof id !== 'string') return false;
  if (collection === 'applications') return applicationIdParts(id) !== undefined;
  // (Which two users, in which order, is the policy's to judge: it answers with its own message.)
  if (collection === 'conversations')
    return id.split('_').length === 2 && id.split('_').every((p) => ID_PATTERN.test(p));
  return ID_PATTERN.test(id);
}

const LETTERS_AND_DIGITS = 'abcdefghijklmnopqrstuvwxyz0123456789';
const DIGITS = '0123456789';

/**
 * A random id for a new document, from a caller-supplied source of random bytes: 20 lowercase
 * letters and digits, the last always a digit, so no built-in name can ever be generated.
 */
export function newId(randomBytes: (n: number) => Uint8Array): string {
  const bytes = randomBytes(20);
  let out = '';
  bytes.forEach((b, i) => {
    out += i === bytes.length - 1 ? DIGITS[b % DIGITS.length] : LETTERS_AND_DIGITS[b % LETTERS_AND_DIGITS.length];
  });
  return out;
}

/** The refusal of a write whose document id fails `isDocumentId`. */
export const INVALID_ID_MESSAGE =
  'Invalid document id: ids are made by the app (letters, digits and dashes), never a built-in name such as "toString"';
