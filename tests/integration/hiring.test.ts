import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleStoredGigs } from '../../sync-server/policies/hiring';
import {
  accept,
  applicationDoc,
  applyTo,
  gigDoc,
  offer,
  person,
  pullAll,
  write,
  type Person,
} from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/in-process-server';

/** Openings, filled gigs, new offers after a decline and deleting under way (decision 014). */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.cleanup();
});

type Doc = Record<string, unknown>;

async function gigBy(buyer: Person, overrides: Doc = {}): Promise<Doc> {
  const { refusal, master } = await write(buyer.http, 'gigs', gigDoc({ title: 'Short story edit', ...overrides }));
  if (refusal || !master) throw new Error(`gig refused: ${refusal}`);
  return master;
}

const storedGig = (id: unknown) => server.ctx.store.get('gigs', String(id))!;
const storedApp = (id: unknown) => server.ctx.store.get('applications', String(id))!;
const notificationsOf = async (p: Person) => (await pullAll(p.http, 'notifications')).documents;

/** A buyer's gig (one opening unless told), `count` applicants, and a stranger who has not applied. */
async function scene(count: number, gigOverrides: Doc = {}) {
  const buyer = await person(server.url, { name: 'Bea Buyer' });
  const gig = await gigBy(buyer, gigOverrides);
  const applicants: Person[] = [];
  const applications: Doc[] = [];
  for (let i = 0; i < count; i++) {
    const p = await person(server.url, { name: `Applicant ${i + 1}` });
    applicants.push(p);
    applications.push(await applyTo(p, String(gig.id)));
  }
  const stranger = await person(server.url, { name: 'Nora Newcomer' });
  return { buyer, gig, applicants, applications, stranger };
}

describe('openings', () => {
  it('a new gig hires one person unless told otherwise, and is not filled', async () => {
    const buyer = await person(server.url);
    expect(await gigBy(buyer)).toMatchObject({ openings: 1, filledAt: null });
    expect(await gigBy(buyer, { openings: 3 })).toMatchObject({ openings: 3, filledAt: null });
  });

  it.each([[0], [51], [1.5], ['2']])('refuses openings of %j', async (openings) => {
    const buyer = await person(server.url);
    const res = await write(buyer.http, 'gigs', gigDoc({ openings }));
    expect(res.refusal).toMatch(/openings/i);
  });

  it('a client cannot stamp its own gig filled', async () => {
    const buyer = await person(server.url);
    expect(await gigBy(buyer, { filledAt: 123 })).toMatchObject({ filledAt: null });
  });
});

describe('a filled gig', () => {
  it('is stamped filled when accepted offers reach its openings; the applicants still waiting are closed and told', async () => {
    const { buyer, gig, applicants, applications } = await scene(3);
    const hired = await accept(applicants[0]!.http, await offer(buyer.http, applications[0]!, 40000));
    expect(hired.status).toBe('PENDING_PAYMENT');
    expect(storedGig(gig.id).filledAt).toEqual(expect.any(Number));
    for (const i of [1, 2]) {
      expect(storedApp(applications[i]!.id)).toMatchObject({ status: 'CLOSED', finalBudget: null });
      const notes = await notificationsOf(applicants[i]!);
      expect(notes).toContainEqual(
        expect.objectContaining({
          type: 'application_status',
          gigId: gig.id,
          message: '“Short story edit” has been filled. Your application is closed.',
        }),
      );
    }
    // The one hired is not closed, and not told so.
    expect((await notificationsOf(applicants[0]!)).some((n) => n.type === 'application_status')).toBe(false);
  });

  it("refuses a new application with 'This gig is no longer accepting applications', writing nothing", async () => {
    const { buyer, gig, applicants, applications, stranger } = await scene(1);
    await accept(applicants[0]!.http, await offer(buyer.http, applications[0]!, 0));
    const res = await write(stranger.http, 'applications', applicationDoc(String(gig.id), stranger.user.id));
    expect(res.refusal).toBe('This gig is no longer accepting applications');
    expect(server.ctx.store.get('applications', `${String(gig.id)}.${stranger.user.id}`)).toBeUndefined();
  });

  it('refuses an application pushed by a device that was offline while the gig filled (a sync problem on that device)', async () => {
    const { buyer, gig, applicants, applications, stranger } = await scene(1);
    // The stranger's device saw the gig open and wrote the application offline…
    const offline = applicationDoc(String(gig.id), stranger.user.id, { budget: 30000 });
    await accept(applicants[0]!.http, await offer(buyer.http, applications[0]!, 0));
    // …and pushes it once back online: refused; the answer takes the device's copy away (the
    // client keeps it as a sync problem with this reason) and the server stored nothing.
    const res = await write(stranger.http, 'applications', offline);
    expect(res.refusal).toBe('This gig is no longer accepting applications');
    expect(res.master).toMatchObject({ id: offline.id, _deleted: true });
    expect(server.ctx.store.get('applications', String(offline.id))).toBeUndefined();
  });

  it('gets no offer beyond its openings: an outstanding offer holds the opening', async () => {
    const { buyer, applications } = await scene(2);
    await offer(buyer.http, applications[0]!, 40000);
    const second = await write(
      buyer.http,
      'applications',
      { ...applications[1]!, status: 'PENDING_ACCEPTANCE', finalBudget: 40000 },
      applications[1]!,
    );
    expect(second.refusal).toBe(
      'Every opening on this gig has an offer sent or accepted. Add openings to send more offers.',
    );
    expect(storedApp(applications[1]!.id).status).toBe('PENDING');
  });

  it('with two openings hires two: filled only at the second acceptance', async () => {
    const { buyer, gig, applicants, applications } = await scene(3, { openings: 2 });
    await accept(applicants[0]!.http, await offer(buyer.http, applications[0]!, 0));
    expect(storedGig(gig.id).filledAt).toBeNull();
    expect(storedApp(applications[2]!.id).status).toBe('PENDING');
    await accept(applicants[1]!.http, await offer(buyer.http, applications[1]!, 0));
    expect(storedGig(gig.id).filledAt).toEqual(expect.any(Number));
    expect(storedApp(applications[2]!.id).status).toBe('CLOSED');
  });

  it('with forty openings, forty offers and forty acceptances made at once all succeed, and fill it', async () => {
    // On PostgreSQL each acceptance reads every application of the gig (the openings' count):
    // forty decisions lose to one another there, and every one must still get its answer.
    const { buyer, gig, applicants, applications } = await scene(40, { openings: 40 });
    const offered = await Promise.all(applications.map((a) => offer(buyer.http, a, 0)));
    const accepted = await Promise.all(offered.map((o, i) => accept(applicants[i]!.http, o)));
    expect(accepted.map((a) => a.status)).toEqual(accepted.map(() => 'IN_PROGRESS'));
    expect(storedGig(gig.id).filledAt).toEqual(expect.any(Number));
  });

  it('reopens when its creator adds openings: new applications and an offer to a closed applicant are accepted again', async () => {
    const { buyer, gig, applicants, applications, stranger } = await scene(2);
    await accept(applicants[0]!.http, await offer(buyer.http, applications[0]!, 0));
    const filled = storedGig(gig.id);
    expect(filled.filledAt).toEqual(expect.any(Number));
    // Content is locked once work is accepted; openings are not.
    const { _seq, ...current } = filled;
    const reopened = await write(buyer.http, 'gigs', { ...current, openings: 2 }, current);
    expect(reopened.refusal).toBeUndefined();
    expect(reopened.master).toMatchObject({ openings: 2, filledAt: null });
    const edited = await write(buyer.http, 'gigs', { ...reopened.master!, title: 'Another title' }, reopened.master!);
    expect(edited.refusal).toBe('This gig can no longer be edited: an offer on it has been accepted.');
    // Fewer openings than people hired is refused.
    expect((await write(buyer.http, 'gigs', { ...reopened.master!, openings: 0 }, reopened.master!)).refusal).toMatch(
      /openings/i,
    );
    await applyTo(stranger, String(gig.id));
    const { _seq: _c, ...closed } = storedApp(applications[1]!.id);
    expect(closed.status).toBe('CLOSED');
    const again = await offer(buyer.http, closed, 50000);
    expect(again).toMatchObject({ status: 'PENDING_ACCEPTANCE', finalBudget: 50000 });
  });

  it('is refused fewer openings than the offers already out or accepted', async () => {
    const { buyer, gig, applications } = await scene(2, { openings: 2 });
    await offer(buyer.http, applications[0]!, 100);
    await offer(buyer.http, applications[1]!, 100);
    const { _seq, ...current } = storedGig(gig.id);
    const res = await write(buyer.http, 'gigs', { ...current, openings: 1 }, current);
    expect(res.refusal).toBe('Openings cannot be fewer than the offers already sent or accepted');
  });

  it('stored before openings existed with work accepted is settled at start-up: stamped filled, the waiting closed', async () => {
    const { buyer, gig, applicants, applications } = await scene(2);
    await accept(applicants[0]!.http, await offer(buyer.http, applications[0]!, 0));
    // Make it look like a gig from before openings: no openings, no filledAt, the other still waiting.
    const { _seq: _g, openings: _o, filledAt: _f, ...legacy } = storedGig(gig.id);
    const { _seq: _a, ...waiting } = storedApp(applications[1]!.id);
    await server.ctx.store.commit([
      { collection: 'gigs', doc: legacy },
      { collection: 'applications', doc: { ...waiting, status: 'PENDING' } },
    ]);
    expect(await settleStoredGigs(server.ctx.store, Date.now())).toBeGreaterThan(0);
    expect(storedGig(gig.id).filledAt).toEqual(expect.any(Number));
    expect(storedApp(applications[1]!.id).status).toBe('CLOSED');
    // Settling again writes nothing.
    const before = server.ctx.store.all('gigs');
    expect(await settleStoredGigs(server.ctx.store, Date.now())).toBe(0);
    expect([...server.ctx.store.all('gigs')]).toEqual([...before]);
  });
});

describe('a new offer after a decline', () => {
  it('is accepted, and the applicant is told it is a new offer (FINAL_BUDGET_OFFER)', async () => {
    const { buyer, applicants, applications } = await scene(1);
    const first = await offer(buyer.http, applications[0]!, 30000);
    const declined = await write(
      applicants[0]!.http,
      'applications',
      { ...first, status: 'REJECTED', finalBudget: null },
      first,
    );
    expect(declined.master).toMatchObject({ status: 'REJECTED' });
    const second = await offer(buyer.http, declined.master!, 45000);
    expect(second).toMatchObject({ status: 'PENDING_ACCEPTANCE', finalBudget: 45000 });
    const offers = (await notificationsOf(applicants[0]!)).filter((n) => n.type === 'FINAL_BUDGET_OFFER');
    expect(offers.map((n) => n.message).sort()).toEqual([
      'New offer from “Bea Buyer” for “Short story edit”',
      'Offer from “Bea Buyer” for “Short story edit”',
    ]);
    expect(offers.find((n) => String(n.message).startsWith('New offer'))).toMatchObject({ finalBudget: 45000 });
  });

  it('only by the gig creator', async () => {
    const { buyer, applicants, applications } = await scene(1);
    const first = await offer(buyer.http, applications[0]!, 30000);
    const declined = (
      await write(applicants[0]!.http, 'applications', { ...first, status: 'REJECTED', finalBudget: null }, first)
    ).master!;
    const self = await write(
      applicants[0]!.http,
      'applications',
      { ...declined, status: 'PENDING_ACCEPTANCE', finalBudget: 99999 },
      declined,
    );
    expect(self.refusal).toBe('Only the creator of this gig can send offers.');
  });
});

describe('deleting a gig', () => {
  it("is refused while work on it is under way, with 'Work on this gig is under way…'", async () => {
    const { buyer, gig, applicants, applications } = await scene(1);
    await accept(applicants[0]!.http, await offer(buyer.http, applications[0]!, 40000));
    // The gig as the buyer's device now has it (filled by the acceptance).
    const { _seq, ...current } = storedGig(gig.id);
    const res = await write(buyer.http, 'gigs', { ...current, _deleted: true }, current);
    expect(res.refusal).toBe('Work on this gig is under way. Complete the work before deleting the gig.');
    expect(storedGig(gig.id)._deleted).toBe(false);
  });

  it('is allowed with only waiting applicants', async () => {
    const { buyer, gig } = await scene(1);
    const res = await write(buyer.http, 'gigs', { ...gig, _deleted: true }, gig);
    expect(res.refusal).toBeUndefined();
  });
});
