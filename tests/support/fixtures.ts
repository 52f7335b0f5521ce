import crypto from 'node:crypto';
import type { PullAnswer, PushAnswer } from '../../shared/sync/protocol';
import { TestClient } from './http-client';

/** Factories shared by the tests (integration, end-to-end, and unit tests of the client data layer). */

export const PASSWORD = 'Str0ngPassword';

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${crypto.randomBytes(4).toString('hex')}@example.com`;
}

export function randomId(): string {
  return crypto.randomBytes(10).toString('hex');
}

export function isoDay(offsetDays: number, from = Date.now()): string {
  return new Date(from + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

export type SignedUpUser = { id: string; name: string; email: string; [k: string]: unknown };

export async function signUp(
  client: TestClient,
  overrides: Partial<{ name: string; email: string; password: string }> = {},
): Promise<SignedUpUser> {
  const body = {
    name: overrides.name ?? 'Ada Painter',
    email: overrides.email ?? uniqueEmail(),
    password: overrides.password ?? PASSWORD,
    confirmPassword: overrides.password ?? PASSWORD,
    termsAccepted: true,
  };
  const res = await client.post<{ user: SignedUpUser; error?: string }>('/api/auth/signup', body);
  if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.user;
}

/** The push answer (shared/sync/protocol.ts). */
export type PushResult = PushAnswer;

/** Pushes rows as they are (tests send malformed ones too: the rows are not typed as the protocol's). */
export async function push(
  client: TestClient,
  collection: string,
  rows: { assumedMasterState?: unknown; newDocumentState: unknown }[],
) {
  return client.post<PushResult>(`/api/sync/${collection}/push`, rows);
}

/** Pushes one document as the client would, assuming the given master state; returns the server's answer for it. */
export async function write(
  client: TestClient,
  collection: string,
  doc: Record<string, unknown>,
  assumed?: Record<string, unknown>,
) {
  const res = await push(client, collection, [
    { assumedMasterState: assumed ?? null, newDocumentState: { _deleted: false, ...doc } },
  ]);
  if (res.status !== 200) throw new Error(`push failed: ${res.status} ${JSON.stringify(res.body)}`);
  const refusal = res.body.refused.find((r) => r.id === doc.id);
  const master = res.body.conflicts.find((c) => c.id === doc.id);
  return { refusal: refusal?.reason, master };
}

export async function pullAll(client: TestClient, collection: string, seq = 0) {
  const res = await client.get<PullAnswer>(`/api/sync/${collection}/pull?seq=${seq}&limit=1000`);
  if (res.status !== 200) throw new Error(`pull failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function ownUser(client: TestClient, userId: string) {
  const { documents } = await pullAll(client, 'users');
  const own = documents.find((d) => d.id === userId);
  if (!own) throw new Error('own user record not replicated');
  return own;
}

export const PROFILE = {
  username: 'adapaints',
  location: 'CA',
  creativeNiche: 'visual_art',
  subcategory: 'Illustration',
  portfolioLink: 'https://example.com/portfolio',
} as const;

/** Signs up and completes the one-time profile setup. */
export async function signUpWithProfile(
  client: TestClient,
  overrides: Partial<{ name: string; email: string; username: string; location: string }> = {},
) {
  return setUpProfile(client, await signUp(client, overrides), overrides);
}

/** Completes the one-time profile setup of the signed-in `user`. */
export async function setUpProfile(
  client: TestClient,
  user: SignedUpUser,
  overrides: Partial<{ username: string; location: string }> = {},
) {
  const own = await ownUser(client, user.id);
  const { refusal, master } = await write(
    client,
    'users',
    {
      ...own,
      ...PROFILE,
      username: overrides.username ?? `u${randomId().slice(0, 8)}`,
      location: overrides.location ?? 'CA',
    },
    own,
  );
  if (refusal) throw new Error(`profile setup refused: ${refusal}`);
  return { ...user, ...master } as SignedUpUser;
}

export function gigDoc(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: randomId(),
    title: 'Album cover illustration',
    description: 'A painted cover for a folk album, delivered as a print-ready file.',
    category: 'Visual Art',
    locationType: 'remote',
    budget: '500-1000',
    isPassionDriven: false,
    currency: 'CAD',
    skills: 'Illustration, Painting, Typography',
    projectDeadline: isoDay(30),
    createdAt: Date.now(),
    createdBy: 'whoever-the-client-says',
    creatorName: 'Anybody',
    status: 'active',
    updatedAt: Date.now(),
    ...overrides,
  };
}

export function applicationDoc(
  gigId: string,
  applicantId: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id: `${gigId}.${applicantId}`,
    gigId,
    applicantId,
    budget: 75000,
    currency: 'CAD',
    status: 'PENDING',
    appliedAt: Date.now(),
    finalBudget: null,
    startedAt: null,
    completedAt: null,
    paymentConfirmedAt: null,
    updatedAt: Date.now(),
    ...overrides,
  };
}

/** A signed-up user with a completed profile, and the client holding their session. */
export type Person = { http: TestClient; user: SignedUpUser };

/** A new person on the server at `url`: signs up and completes the profile setup. */
export async function person(url: string, overrides: Parameters<typeof signUpWithProfile>[1] = {}): Promise<Person> {
  const http = new TestClient(url);
  return { http, user: await signUpWithProfile(http, overrides) };
}

type Doc = Record<string, unknown>;

async function mustWrite(what: string, answer: Promise<{ refusal?: string; master?: Doc }>): Promise<Doc> {
  const { refusal, master } = await answer;
  if (refusal || !master) throw new Error(`${what} refused: ${refusal ?? 'no master state'}`);
  return master;
}

/** `applicant` applies to the gig: the stored application (PENDING). Throws when refused. */
export function applyTo(applicant: Person, gigId: string, overrides: Doc = {}): Promise<Doc> {
  return mustWrite(
    'application',
    write(applicant.http, 'applications', applicationDoc(gigId, applicant.user.id, overrides)),
  );
}

/** The gig's creator offers `finalBudget` on the application (PENDING_ACCEPTANCE). Throws when refused. */
export function offer(buyer: TestClient, application: Doc, finalBudget: number): Promise<Doc> {
  return mustWrite(
    'offer',
    write(buyer, 'applications', { ...application, status: 'PENDING_ACCEPTANCE', finalBudget }, application),
  );
}

/** The applicant accepts the offer (Start Working): PENDING_PAYMENT when there is money to pay, IN_PROGRESS otherwise. Throws when refused. */
export function accept(seller: TestClient, offered: Doc): Promise<Doc> {
  return mustWrite('acceptance', write(seller, 'applications', { ...offered, status: 'IN_PROGRESS' }, offered));
}

/** An offer of `finalBudget` made and accepted: the application as the acceptance left it. */
export async function offerAndAccept(
  buyer: TestClient,
  seller: TestClient,
  application: Doc,
  finalBudget: number,
): Promise<Doc> {
  return accept(seller, await offer(buyer, application, finalBudget));
}

/** Asks for a payout (Stripe Connect) account for `user`, as the settings page does: the server's answer. */
export function createPayoutAccount(http: TestClient, user: { id: string; email: string }, hostname = 'localhost') {
  return http.post<{ accountId: string; accountLink: string; error?: string }>('/api/stripe/create-connect-account', {
    email: user.email,
    userId: user.id,
    hostname,
  });
}
