import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPush } from '../../sync-server/replication/push';
import { TestClient } from '../support/http-client';
import { applicationDoc, gigDoc, pullAll, signUp, signUpWithProfile, write } from '../support/fixtures';
import { ON_POSTGRES } from '../support/store-under-test';
import { startTestServer, type TestServer } from '../support/in-process-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.cleanup();
});

/** A buyer with a gig, an applicant who applied, and a stranger. */
async function scene() {
  const buyer = new TestClient(server.url);
  const buyerUser = await signUpWithProfile(buyer, { name: 'Bea Buyer' });
  const gig = (await write(buyer, 'gigs', gigDoc({ title: 'Poster design' }))).master!;
  const seller = new TestClient(server.url);
  const sellerUser = await signUpWithProfile(seller, { name: 'Sam Seller', location: 'GB' });
  const applied = await write(
    seller,
    'applications',
    applicationDoc(gig.id as string, sellerUser.id, { budget: 60000 }),
  );
  expect(applied.refusal).toBeUndefined();
  const stranger = new TestClient(server.url);
  const strangerUser = await signUpWithProfile(stranger, { name: 'Stan Stranger' });
  return { buyer, buyerUser, gig, seller, sellerUser, application: applied.master!, stranger, strangerUser };
}

const notificationsOf = async (client: TestClient) => (await pullAll(client, 'notifications')).documents;

describe('applying', () => {
  it('creates a PENDING application with the server-filled fields and tells the creator (new_application)', async () => {
    const { application, buyer, buyerUser, sellerUser, gig } = await scene();
    expect(application).toMatchObject({
      status: 'PENDING',
      gigTitle: 'Poster design',
      creatorId: buyerUser.id,
      creatorName: 'Bea Buyer',
      applicantName: 'Sam Seller',
      applicantEmail: sellerUser.email,
      applicantCountry: 'GB',
      budget: 60000,
      currency: 'CAD',
      finalBudget: null,
    });
    // The server fills in the creator's email but shares it only once an offer is accepted (decision 003).
    expect(application).not.toHaveProperty('creatorEmail');
    expect(server.ctx.store.get('applications', application.id as string)).toMatchObject({
      creatorEmail: buyerUser.email,
      applicantEmail: sellerUser.email,
    });
    const notes = await notificationsOf(buyer);
    expect(notes).toContainEqual(
      expect.objectContaining({ type: 'new_application', gigId: gig.id, read: false, senderId: sellerUser.id }),
    );
  });

  it("refuses a second application: 'You have already applied to this gig'", async () => {
    const { seller, sellerUser, gig } = await scene();
    const again = await write(seller, 'applications', applicationDoc(gig.id as string, sellerUser.id));
    expect(again.refusal === 'You have already applied to this gig' || again.refusal === undefined).toBe(true);
    expect(again.master).toMatchObject({ status: 'PENDING', budget: 60000 });
  });

  it("refuses applying to one's own gig: 'You cannot apply to your own gig'", async () => {
    const { buyer, buyerUser, gig } = await scene();
    const own = await write(buyer, 'applications', applicationDoc(gig.id as string, buyerUser.id));
    expect(own.refusal).toBe('You cannot apply to your own gig');
  });

  it("refuses an applicant without a profile: 'Please complete your profile before applying'", async () => {
    const { gig } = await scene();
    const fresh = new TestClient(server.url);
    const user = await signUp(fresh);
    expect((await write(fresh, 'applications', applicationDoc(gig.id as string, user.id))).refusal).toBe(
      'Please complete your profile before applying',
    );
  });

  it('makes the two linked users see each other’s public profile, even with an old checkpoint, but never the email', async () => {
    const buyer = new TestClient(server.url);
    const buyerUser = await signUpWithProfile(buyer);
    const gig = (await write(buyer, 'gigs', gigDoc())).master!;
    const seller = new TestClient(server.url);
    const sellerUser = await signUpWithProfile(seller);
    const before = await pullAll(buyer, 'users');
    expect(before.documents.map((d) => d.id)).not.toContain(sellerUser.id);

    await write(seller, 'applications', applicationDoc(gig.id as string, sellerUser.id));
    const after = await pullAll(buyer, 'users', before.checkpoint.seq);
    const profile = after.documents.find((d) => d.id === sellerUser.id)!;
    expect(profile).toMatchObject({ username: sellerUser.username });
    expect(profile).not.toHaveProperty('email');
    expect((await pullAll(seller, 'users')).documents.map((d) => d.id)).toContain(buyerUser.id);
  });
});

describe('offer, accept, decline (docs/product.md §4 transitions)', () => {
  it('buyer sends an offer: PENDING → PENDING_ACCEPTANCE with finalBudget, applicant gets FINAL_BUDGET_OFFER', async () => {
    const { buyer, seller, application } = await scene();
    const offered = await write(
      buyer,
      'applications',
      { ...application, status: 'PENDING_ACCEPTANCE', finalBudget: 55000 },
      application,
    );
    expect(offered.refusal).toBeUndefined();
    expect(offered.master).toMatchObject({ status: 'PENDING_ACCEPTANCE', finalBudget: 55000 });
    expect(await notificationsOf(seller)).toContainEqual(
      expect.objectContaining({ type: 'FINAL_BUDGET_OFFER', finalBudget: 55000, currency: 'CAD' }),
    );
  });

  it('refuses an offer sent by the applicant or a stranger, and leaves the application unchanged', async () => {
    const { seller, stranger, application } = await scene();
    const bySeller = await write(
      seller,
      'applications',
      { ...application, status: 'PENDING_ACCEPTANCE', finalBudget: 1 },
      application,
    );
    expect(bySeller.refusal).toBeDefined();
    expect(bySeller.master).toMatchObject({ status: 'PENDING', finalBudget: null });
    const byStranger = await write(
      stranger,
      'applications',
      { ...application, status: 'PENDING_ACCEPTANCE', finalBudget: 1 },
      application,
    );
    expect(byStranger.refusal).toBeDefined();
    expect(server.ctx.store.get('applications', application.id as string)!.status).toBe('PENDING');
  });

  it('Start Working on a paid offer → PENDING_PAYMENT and the buyer is told payment is needed', async () => {
    const { buyer, seller, application } = await scene();
    const offered = (
      await write(
        buyer,
        'applications',
        { ...application, status: 'PENDING_ACCEPTANCE', finalBudget: 55000 },
        application,
      )
    ).master!;
    const byBuyer = await write(buyer, 'applications', { ...offered, status: 'IN_PROGRESS' }, offered);
    expect(byBuyer.refusal).toBeDefined();
    const accepted = await write(
      seller,
      'applications',
      { ...offered, status: 'IN_PROGRESS', startedAt: Date.now() },
      offered,
    );
    expect(accepted.refusal).toBeUndefined();
    expect(accepted.master).toMatchObject({ status: 'PENDING_PAYMENT', startedAt: null });
    expect(await notificationsOf(buyer)).toContainEqual(expect.objectContaining({ type: 'payment_needed' }));
  });

  it('Start Working on a zero offer → IN_PROGRESS with startedAt and GIG_STARTED to the buyer', async () => {
    const { buyer, seller, application } = await scene();
    const offered = (
      await write(buyer, 'applications', { ...application, status: 'PENDING_ACCEPTANCE', finalBudget: 0 }, application)
    ).master!;
    const accepted = await write(seller, 'applications', { ...offered, status: 'IN_PROGRESS' }, offered);
    expect(accepted.master).toMatchObject({ status: 'IN_PROGRESS' });
    expect(typeof accepted.master!.startedAt).toBe('number');
    expect(await notificationsOf(buyer)).toContainEqual(expect.objectContaining({ type: 'GIG_STARTED' }));
  });

  it('Decline → REJECTED with finalBudget cleared and OFFER_REJECTED to the buyer; then only a new offer from the buyer moves it (decision 014)', async () => {
    const { buyer, seller, application } = await scene();
    const offered = (
      await write(
        buyer,
        'applications',
        { ...application, status: 'PENDING_ACCEPTANCE', finalBudget: 1000 },
        application,
      )
    ).master!;
    const declined = (
      await write(seller, 'applications', { ...offered, status: 'REJECTED', finalBudget: null }, offered)
    ).master!;
    expect(declined).toMatchObject({ status: 'REJECTED', finalBudget: null });
    expect(await notificationsOf(buyer)).toContainEqual(expect.objectContaining({ type: 'OFFER_REJECTED' }));
    const accepted = await write(seller, 'applications', { ...declined, status: 'IN_PROGRESS' }, declined);
    expect(accepted.refusal).toBe('An application cannot move from REJECTED to IN_PROGRESS here.');
    const reoffer = await write(
      buyer,
      'applications',
      { ...declined, status: 'PENDING_ACCEPTANCE', finalBudget: 5 },
      declined,
    );
    expect(reoffer.refusal).toBeUndefined();
    expect(reoffer.master).toMatchObject({ status: 'PENDING_ACCEPTANCE', finalBudget: 5 });
  });

  it('an applicant already selected cannot be selected again', async () => {
    const { buyer, application } = await scene();
    const offered = (
      await write(
        buyer,
        'applications',
        { ...application, status: 'PENDING_ACCEPTANCE', finalBudget: 1000 },
        application,
      )
    ).master!;
    const again = await write(buyer, 'applications', { ...offered, finalBudget: 2000 }, offered);
    expect(again.refusal).toBeDefined();
    expect(server.ctx.store.get('applications', application.id as string)!.finalBudget).toBe(1000);
  });

  it('nobody pushes COMPLETED or a payment confirmation through replication', async () => {
    const { buyer, seller, application } = await scene();
    const offered = (
      await write(buyer, 'applications', { ...application, status: 'PENDING_ACCEPTANCE', finalBudget: 0 }, application)
    ).master!;
    const started = (await write(seller, 'applications', { ...offered, status: 'IN_PROGRESS' }, offered)).master!;
    for (const client of [buyer, seller]) {
      const res = await write(
        client,
        'applications',
        { ...started, status: 'COMPLETED', completedAt: Date.now() },
        started,
      );
      expect(res.refusal).toBeDefined();
    }
  });
});

describe('read filters', () => {
  it("a stranger pulls none of another user's applications, notifications or email", async () => {
    const { stranger, buyerUser, sellerUser } = await scene();
    expect((await pullAll(stranger, 'applications')).documents.filter((a) => a.applicantId === sellerUser.id)).toEqual(
      [],
    );
    expect((await pullAll(stranger, 'notifications')).documents.every((n) => n.userId !== buyerUser.id)).toBe(true);
    const users = (await pullAll(stranger, 'users')).documents;
    // A member's public profile reaches users an application links them with; a member who posted
    // a gig has theirs on everyone's device (decision 032), without email or payout fields.
    expect(users.map((u) => u.id)).not.toContain(sellerUser.id);
    const buyerProfile = users.find((u) => u.id === buyerUser.id)!;
    for (const field of ['email', 'stripeAccountId', 'payoutStatus', 'termsAccepted', 'createdAt'])
      expect(buyerProfile).not.toHaveProperty(field);
    const everything = JSON.stringify([
      ...(await pullAll(stranger, 'users')).documents,
      ...(await pullAll(stranger, 'gigs')).documents,
      ...(await pullAll(stranger, 'applications')).documents,
      ...(await pullAll(stranger, 'conversations')).documents,
      ...(await pullAll(stranger, 'notifications')).documents,
    ]);
    expect(everything).not.toContain(buyerUser.email);
    expect(everything).not.toContain(sellerUser.email);
  });

  it('a signed-out client can neither pull nor push', async () => {
    const anon = new TestClient(server.url);
    expect((await anon.get('/api/sync/gigs/pull?seq=0')).status).toBe(401);
    expect((await anon.post('/api/sync/gigs/push', [])).status).toBe(401);
    expect((await anon.get('/api/sync/stream')).status).toBe(401);
  });
});

describe('notifications and conversations', () => {
  it('only the recipient marks a notification read; nobody creates one', async () => {
    const { buyer, stranger, buyerUser } = await scene();
    const note = (await notificationsOf(buyer)).find((n) => n.type === 'new_application')!;
    expect((await write(stranger, 'notifications', { ...note, read: true }, note)).refusal).toBeDefined();
    const marked = await write(buyer, 'notifications', { ...note, read: true }, note);
    expect(marked.master).toMatchObject({ read: true });
    const forged = await write(buyer, 'notifications', { ...note, id: 'forged-notification-1', userId: buyerUser.id });
    expect(forged.refusal).toBe('Notifications are created by the server.');
  });

  it('a conversation opens only between users an application links, never with oneself', async () => {
    const { buyer, buyerUser, sellerUser, stranger, strangerUser, seller } = await scene();
    const id = [buyerUser.id, sellerUser.id].sort().join('_');
    const opened = await write(buyer, 'conversations', { id, participants: [buyerUser.id, sellerUser.id] });
    expect(opened.refusal).toBeUndefined();
    expect(opened.master).toMatchObject({ isCreatorInitiated: true, gigTitle: 'Poster design', lastMessageRead: true });
    expect(await notificationsOf(seller)).toContainEqual(
      expect.objectContaining({ type: 'new_conversation', senderId: buyerUser.id }),
    );

    const unlinkedId = [strangerUser.id, sellerUser.id].sort().join('_');
    expect(
      (await write(stranger, 'conversations', { id: unlinkedId, participants: [strangerUser.id, sellerUser.id] }))
        .refusal,
    ).toBeDefined();
    const self = await write(stranger, 'conversations', {
      id: `${strangerUser.id}_${strangerUser.id}`,
      participants: [strangerUser.id, strangerUser.id],
    });
    expect(self.refusal).toBe('You cannot converse with yourself');
    expect((await pullAll(stranger, 'conversations')).documents.map((c) => c.id)).not.toContain(id);
  });

  it('only the participant who did not send the last message marks the conversation read', async () => {
    const { buyer, buyerUser, seller, sellerUser } = await scene();
    const id = [buyerUser.id, sellerUser.id].sort().join('_');
    await write(buyer, 'conversations', { id, participants: [buyerUser.id, sellerUser.id] });
    // The chat server writes these when a message is accepted; here it is set directly.
    const stored = server.ctx.store.get('conversations', id)!;
    await server.ctx.store.commit([
      {
        collection: 'conversations',
        doc: {
          ...stored,
          lastMessage: 'Hi',
          lastSenderId: buyerUser.id,
          lastMessageRead: false,
          lastMessageTimestamp: Date.now(),
          updatedAt: Number(stored.updatedAt) + 1,
        },
      },
    ]);
    const seen = (await pullAll(buyer, 'conversations')).documents.find((c) => c.id === id)!;
    const bySender = await write(buyer, 'conversations', { ...seen, lastMessageRead: true }, seen);
    expect(bySender.refusal).toBe('Only the receiver can mark a conversation read.');
    const byReceiver = await write(seller, 'conversations', { ...seen, lastMessageRead: true }, seen);
    expect(byReceiver.master).toMatchObject({ lastMessageRead: true, lastMessage: 'Hi' });
  });
});

describe('deleting a gig', () => {
  it('leaves a tombstone and keeps its applications readable to both parties, with the gig title', async () => {
    const { buyer, seller, gig, application } = await scene();
    const deleted = await write(buyer, 'gigs', { ...gig, _deleted: true }, gig);
    expect(deleted.master).toMatchObject({ _deleted: true });
    for (const client of [buyer, seller]) {
      const app = (await pullAll(client, 'applications')).documents.find((a) => a.id === application.id)!;
      expect(app).toMatchObject({ gigDeleted: true, gigTitle: 'Poster design', _deleted: false });
    }
  });

  it('is refused while paid work on it is under way', async () => {
    const { buyer, seller, gig, application } = await scene();
    const offered = (
      await write(
        buyer,
        'applications',
        { ...application, status: 'PENDING_ACCEPTANCE', finalBudget: 1000 },
        application,
      )
    ).master!;
    await write(seller, 'applications', { ...offered, status: 'IN_PROGRESS' }, offered);
    // The gig as it is now: the acceptance filled it.
    const { _seq, ...current } = server.ctx.store.get('gigs', gig.id as string)!;
    const res = await write(buyer, 'gigs', { ...current, _deleted: true }, current);
    expect(res.refusal).toBe('Work on this gig is under way. Complete the work before deleting the gig.');
    expect(server.ctx.store.get('gigs', gig.id as string)!._deleted).toBe(false);
  });
});

/**
 * Seed 848419: Cleo's offer (sent offline) and her deletion of the gig went out together. The
 * server applied the offer, then, while the offer's push waited for its commit, the deletion
 * marked the application `gigDeleted`; the deletion's stream event reached Cleo's device first
 * and was skipped there (the offer's push was under way), then the offer's answer showed the
 * application as it was before the deletion. Her device kept that older state for good. The
 * answer must show each document as it is once the commits are durable.
 */
describe('a push answer and a write that lands while the push waits for its commit', () => {
  it("answers the offer with the application as the gig's deletion left it (gigDeleted), not as the offer left it", async () => {
    const cleo = new TestClient(server.url);
    const cleoUser = await signUpWithProfile(cleo, { name: 'Cleo Owner' });
    const gig = (await write(cleo, 'gigs', gigDoc({ title: 'Race poster' }))).master!;
    const ben = new TestClient(server.url);
    const benUser = await signUpWithProfile(ben, { name: 'Ben Applicant' });
    const applied = await write(ben, 'applications', applicationDoc(String(gig.id), benUser.id, { budget: 60_000 }));
    expect(applied.refusal).toBeUndefined();
    const application = applied.master!;

    const store = server.ctx.store;
    const auth = { session: {} as never, user: store.get('users', cleoUser.id)! };
    // Both requests as the server runs them: the offer is applied and waits for its commit, the
    // deletion is applied meanwhile; then the offer is answered.
    const offer = applyPush(server.ctx, auth, 'applications', [
      {
        assumedMasterState: application,
        newDocumentState: { ...application, status: 'PENDING_ACCEPTANCE', finalBudget: 40_000, updatedAt: Date.now() },
      },
    ]);
    const deletion = applyPush(server.ctx, auth, 'gigs', [
      { assumedMasterState: gig, newDocumentState: { ...gig, _deleted: true } },
    ]);
    const [offered, deleted] = await Promise.all([offer, deletion]);
    expect(deleted.refused).toEqual([]);
    expect(offered.refused).toEqual([]);

    const stored = store.get('applications', String(application.id))!;
    // The embedded store applies the two in the order they came (the offer first); on PostgreSQL
    // they race to commit, and either order is a valid outcome. In both the deletion marks the
    // application, and the offer's answer is the application as the last commit left it.
    if (!ON_POSTGRES) expect(stored).toMatchObject({ status: 'PENDING_ACCEPTANCE', finalBudget: 40_000 });
    expect(stored.gigDeleted).toBe(true);
    expect(offered.conflicts).toHaveLength(1);
    expect(offered.conflicts[0]).toMatchObject({
      id: application.id,
      status: stored.status,
      finalBudget: stored.finalBudget,
      gigDeleted: true,
      updatedAt: stored.updatedAt,
    });
  });
});

/**
 * Seed 848465: Cleo applied offline to a gig its owner had deleted; on reconnect the application
 * was refused ("Gig data is missing"), kept as a sync problem, and answered with a tombstone.
 * Before her device pulled the deletion she applied again (same application id): the push assumed
 * that tombstone, the server holds no such document, and it answered the push as a conflict with
 * the tombstone, without a refusal: the device took the tombstone as the server's state and the
 * second application vanished without a sync problem. The server must judge it instead.
 */
describe('a write over the tombstone of a refused write', () => {
  async function deletedGigAndRefusedApplication() {
    const owner = new TestClient(server.url);
    await signUpWithProfile(owner, { name: 'Wes Owner' });
    const gig = (await write(owner, 'gigs', gigDoc({ title: 'Gone poster' }))).master!;
    expect((await write(owner, 'gigs', { ...gig, _deleted: true }, gig)).refusal).toBeUndefined();
    const cleo = new TestClient(server.url);
    const cleoUser = await signUpWithProfile(cleo, { name: 'Cleo Applicant' });
    const first = await write(cleo, 'applications', applicationDoc(String(gig.id), cleoUser.id, { budget: 50_000 }));
    expect(first.refusal).toBe('Unable to process application: Gig data is missing');
    expect(first.master).toMatchObject({ _deleted: true, budget: 50_000 });
    return { cleo, cleoUser, gig, tombstone: first.master! };
  }

  it('is judged again and refused with its reason, not answered as a conflict with the tombstone', async () => {
    const { cleo, cleoUser, gig, tombstone } = await deletedGigAndRefusedApplication();
    const again = await write(
      cleo,
      'applications',
      applicationDoc(String(gig.id), cleoUser.id, { budget: 81_400 }),
      tombstone,
    );
    expect(again.refusal).toBe('Unable to process application: Gig data is missing');
    expect(again.master).toMatchObject({ _deleted: true, budget: 81_400 });
    expect(server.ctx.store.get('applications', `${String(gig.id)}.${cleoUser.id}`)).toBeUndefined();
  });
});
