import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangesEvent, PushAnswer } from '../../shared/sync/protocol';
import { accept, applyTo, gigDoc, offer, person, pullAll, write, type Person } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/in-process-server';
import { openStream } from '../support/sse';

/**
 * Contact emails travel only between two users who agreed to work together (decision 003): a
 * stranger who applies to a gig learns nothing of the creator's email, neither in the push answer,
 * nor by pull, nor on the change stream; nor does the creator learn the applicant's before the
 * offer is accepted. After acceptance both sides see each other's.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: 'silent' });
});
afterAll(async () => {
  await server.cleanup();
});

type Doc = Record<string, unknown>;
const url = () => `${server.url}/api/sync/stream`;

/** Every string anywhere in the documents. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

const mentions = (docs: unknown, email: string) =>
  strings(docs).some((s) => s.toLowerCase().includes(email.toLowerCase()));

async function gigBy(buyer: Person): Promise<Doc> {
  const { master, refusal } = await write(buyer.http, 'gigs', gigDoc({ title: 'Tour poster' }));
  expect(refusal).toBeUndefined();
  return master!;
}

describe('emails before an offer is accepted', () => {
  it('a stranger applying gets no creatorEmail in the push answer, the pull or the stream, and the creator no applicantEmail', async () => {
    const buyer = await person(server.url, { name: 'Bea Buyer' });
    const gig = await gigBy(buyer);
    expect(gig).not.toHaveProperty('creatorEmail');

    const stranger = await person(server.url, { name: 'Stan Stranger' });
    const strangerStream = await openStream(url(), stranger.http.cookieHeader());
    const buyerStream = await openStream(url(), buyer.http.cookieHeader());
    await strangerStream.waitFor((e) => e.event === 'hello');
    await buyerStream.waitFor((e) => e.event === 'hello');

    const answer = await write(stranger.http, 'applications', {
      id: `${gig.id as string}.${stranger.user.id}`,
      gigId: gig.id,
      applicantId: stranger.user.id,
      budget: 50000,
      currency: 'CAD',
      status: 'PENDING',
      // A client may claim anything; the server keeps the stored creator's email to itself.
      creatorEmail: 'guess@example.com',
    });
    expect(answer.refusal).toBeUndefined();
    const pushed = answer.master!;
    expect(pushed).not.toHaveProperty('creatorEmail');
    expect(pushed.applicantEmail).toBe(stranger.user.email);
    expect(mentions(pushed, buyer.user.email)).toBe(false);

    const pulled = (await pullAll(stranger.http, 'applications')).documents.find((d) => d.id === pushed.id)!;
    expect(pulled).toBeDefined();
    expect(pulled).not.toHaveProperty('creatorEmail');
    for (const collection of ['users', 'gigs', 'applications', 'notifications', 'conversations']) {
      expect(
        mentions((await pullAll(stranger.http, collection)).documents, buyer.user.email),
        `stranger's ${collection} pull`,
      ).toBe(false);
    }

    const streamed = await strangerStream.waitFor(
      (e) => (e.data as { collection?: string }).collection === 'applications',
    );
    expect(mentions(strangerStream.events, buyer.user.email)).toBe(false);
    expect((streamed.data as ChangesEvent).documents.find((d) => d.id === pushed.id)).not.toHaveProperty(
      'creatorEmail',
    );

    // The creator, for their part, does not get the applicant's email before accepting.
    const creatorSide = (await pullAll(buyer.http, 'applications')).documents.find((d) => d.id === pushed.id)!;
    expect(creatorSide).not.toHaveProperty('applicantEmail');
    expect(creatorSide.creatorEmail).toBe(buyer.user.email);
    await buyerStream.waitFor((e) => (e.data as { collection?: string }).collection === 'applications');
    expect(mentions(buyerStream.events, stranger.user.email)).toBe(false);
    for (const collection of ['users', 'gigs', 'applications', 'notifications', 'conversations']) {
      expect(
        mentions((await pullAll(buyer.http, collection)).documents, stranger.user.email),
        `creator's ${collection} pull`,
      ).toBe(false);
    }
    strangerStream.close();
    buyerStream.close();

    // The server still knows both: they are shared when an offer is accepted.
    expect(server.ctx.store.get('applications', pushed.id as string)).toMatchObject({
      creatorEmail: buyer.user.email,
      applicantEmail: stranger.user.email,
    });
  });

  it('an offer made but not yet accepted still shares no email', async () => {
    const buyer = await person(server.url);
    const seller = await person(server.url);
    const offered = await offer(buyer.http, await applyTo(seller, (await gigBy(buyer)).id as string), 30000);
    expect(offered.status).toBe('PENDING_ACCEPTANCE');
    expect(offered).not.toHaveProperty('applicantEmail');
    const sellerSide = (await pullAll(seller.http, 'applications')).documents.find((d) => d.id === offered.id)!;
    expect(sellerSide).not.toHaveProperty('creatorEmail');
  });

  it('one push of applications to many gigs returns no creator email', async () => {
    const buyers = await Promise.all(Array.from({ length: 3 }, () => person(server.url)));
    const gigs = await Promise.all(buyers.flatMap((b) => [gigBy(b), gigBy(b)]));
    const harvester = await person(server.url);
    const rows = gigs.map((g) => ({
      assumedMasterState: null,
      newDocumentState: {
        id: `${g.id as string}.${harvester.user.id}`,
        gigId: g.id,
        applicantId: harvester.user.id,
        budget: 100,
        currency: 'CAD',
        status: 'PENDING',
        _deleted: false,
      },
    }));
    const res = await harvester.http.post<PushAnswer>('/api/sync/applications/push', rows);
    expect(res.status).toBe(200);
    expect(res.body.refused).toEqual([]);
    expect(res.body.conflicts).toHaveLength(gigs.length);
    for (const b of buyers) expect(mentions(res.body, b.user.email)).toBe(false);
  });
});

describe('emails once an offer is accepted', () => {
  it('both sides see each other’s email, in the push answer, the pull and the stream', async () => {
    const buyer = await person(server.url, { name: 'Bea Buyer' });
    const seller = await person(server.url, { name: 'Sam Seller' });
    const offered = await offer(buyer.http, await applyTo(seller, (await gigBy(buyer)).id as string), 45000);
    const buyerStream = await openStream(url(), buyer.http.cookieHeader());
    await buyerStream.waitFor((e) => e.event === 'hello');

    const accepted = await accept(seller.http, offered);
    expect(accepted.status).toBe('PENDING_PAYMENT');
    expect(accepted).toMatchObject({ creatorEmail: buyer.user.email, applicantEmail: seller.user.email });

    const buyerSide = (await pullAll(buyer.http, 'applications')).documents.find((d) => d.id === offered.id)!;
    expect(buyerSide).toMatchObject({
      status: 'PENDING_PAYMENT',
      creatorEmail: buyer.user.email,
      applicantEmail: seller.user.email,
    });
    const event = await buyerStream.waitFor((e) => {
      const data = e.data as { collection?: string; documents?: Doc[] };
      return (
        data.collection === 'applications' &&
        Boolean(data.documents?.some((d) => d.id === offered.id && d.status === 'PENDING_PAYMENT'))
      );
    });
    expect((event.data as ChangesEvent).documents.find((d) => d.id === offered.id)).toMatchObject({
      applicantEmail: seller.user.email,
    });
    buyerStream.close();

    // The gig itself never carries the email, accepted offer or not.
    const gig = (await pullAll(seller.http, 'gigs')).documents.find((g) => g.id === offered.gigId)!;
    expect(gig).not.toHaveProperty('creatorEmail');
  });

  it('a declined offer shares nothing', async () => {
    const buyer = await person(server.url);
    const seller = await person(server.url);
    const offered = await offer(buyer.http, await applyTo(seller, (await gigBy(buyer)).id as string), 20000);
    const { master } = await write(seller.http, 'applications', { ...offered, status: 'REJECTED' }, offered);
    expect(master).toMatchObject({ status: 'REJECTED' });
    expect(master).not.toHaveProperty('creatorEmail');
    expect((await pullAll(buyer.http, 'applications')).documents.find((d) => d.id === offered.id)).not.toHaveProperty(
      'applicantEmail',
    );
  });
});
