import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/http-client';
import { applyPush } from '../../sync-server/replication/push';
import {
  applicationDoc,
  gigDoc,
  isoDay,
  ownUser,
  PROFILE,
  pullAll,
  signUp,
  signUpWithProfile,
  write,
} from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/in-process-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.cleanup();
});

describe('profile setup through the users collection', () => {
  it('saves the setup fields and keeps the server-owned fields whatever the client sends', async () => {
    const client = new TestClient(server.url);
    const user = await signUp(client);
    const own = await ownUser(client, user.id);
    const { refusal, master } = await write(
      client,
      'users',
      { ...own, ...PROFILE, email: 'hijack@example.com', stripeAccountId: 'acct_forged' },
      own,
    );
    expect(refusal).toBeUndefined();
    expect(master).toMatchObject({ ...PROFILE, email: user.email });
    expect(master).not.toHaveProperty('stripeAccountId');
    expect(server.ctx.store.get('portfolios', user.id)).toMatchObject({ portfolioLink: PROFILE.portfolioLink });
  });

  it.each([
    [{ username: '' }, 'Username is required'],
    [{ username: 'ab' }, 'Username must be at least 3 characters long'],
    [{ location: '' }, 'Please select your location'],
    [{ creativeNiche: '' }, 'Please select your creative niche'],
    [{ subcategory: '' }, 'Please select your specific focus area'],
    [{ portfolioLink: '' }, 'Portfolio link is required'],
    [{ portfolioLink: 'example.com' }, 'Please enter a valid URL'],
  ])('refuses setup %j with the docs/product.md message and changes nothing', async (overrides, message) => {
    const client = new TestClient(server.url);
    const user = await signUp(client);
    const own = await ownUser(client, user.id);
    const { refusal, master } = await write(
      client,
      'users',
      { ...own, ...PROFILE, username: 'validname', ...overrides },
      own,
    );
    expect(refusal).toBe(message);
    expect(master).toEqual(own);
  });

  it("refuses a write to another user's profile", async () => {
    const a = new TestClient(server.url);
    const userA = await signUpWithProfile(a);
    const b = new TestClient(server.url);
    await signUp(b);
    const { refusal } = await write(b, 'users', { id: userA.id, name: 'Hacked', updatedAt: 1 });
    expect(refusal).toBeDefined();
    expect(server.ctx.store.get('users', userA.id)!.name).toBe(userA.name);
  });
});

describe('gigs', () => {
  it('creates a gig with the fields only the server sets, visible to everyone without the creator email', async () => {
    const a = new TestClient(server.url);
    const userA = await signUpWithProfile(a, { name: 'Ada' });
    const gig = gigDoc({ title: '  Mural for a café  ', skills: ' paint, , walls ,design ' });
    const { refusal, master } = await write(a, 'gigs', gig);
    expect(refusal).toBeUndefined();
    expect(master).toMatchObject({
      title: 'Mural for a café',
      skills: 'paint, walls, design',
      createdBy: userA.id,
      creatorName: 'Ada',
      status: 'active',
      currency: 'CAD',
    });
    expect(master).not.toHaveProperty('creatorEmail');

    const stranger = new TestClient(server.url);
    await signUp(stranger);
    const seen = (await pullAll(stranger, 'gigs')).documents.find((d) => d.id === gig.id)!;
    expect(seen.title).toBe('Mural for a café');
    expect(JSON.stringify(seen)).not.toContain(userA.email);
  });

  it("refuses a gig from a user whose profile is not complete: 'Please complete your profile before creating a gig'", async () => {
    const c = new TestClient(server.url);
    await signUp(c);
    const gig = gigDoc();
    const { refusal, master } = await write(c, 'gigs', gig);
    expect(refusal).toBe('Please complete your profile before creating a gig');
    expect(master).toMatchObject({ id: gig.id, _deleted: true, title: gig.title });
    expect(server.ctx.store.get('gigs', gig.id as string)).toBeUndefined();
  });

  it.each([
    [{ title: '' }, 'Title is required'],
    [{ description: ' ' }, 'Description is required'],
    [{ category: '' }, 'Category is required'],
    [{ locationType: '' }, 'Location type is required'],
    [{ budget: '' }, 'Budget is required for non-passion-driven projects'],
    [{ skills: ' , ' }, 'Skills are required'],
    [{ projectDeadline: undefined }, 'Project deadline is required for remote gigs'],
    [
      { locationType: 'in-person', projectDeadline: undefined, country: 'FR', city: 'Paris' },
      'Project date is required for in-person gigs',
    ],
    [
      { locationType: 'in-person', projectDeadline: undefined, projectDate: isoDay(5), city: 'Paris' },
      'Country is required for in-person gigs',
    ],
    [
      { locationType: 'in-person', projectDeadline: undefined, projectDate: isoDay(5), country: 'FR' },
      'City is required for in-person gigs',
    ],
  ])('refuses %j with the docs/product.md message', async (overrides, message) => {
    const a = new TestClient(server.url);
    await signUpWithProfile(a);
    const gig = gigDoc(overrides);
    for (const [k, v] of Object.entries(overrides)) if (v === undefined) delete gig[k];
    const { refusal } = await write(a, 'gigs', gig);
    expect(refusal).toBe(message);
  });

  it('sets the currency from the country, and accepts a passion-driven gig without a budget', async () => {
    const a = new TestClient(server.url);
    await signUpWithProfile(a);
    const inPerson = gigDoc({
      locationType: 'in-person',
      projectDeadline: undefined,
      projectDate: isoDay(3),
      country: 'NG',
      city: 'Lagos',
      currency: 'CAD',
    });
    delete inPerson.projectDeadline;
    expect((await write(a, 'gigs', inPerson)).master).toMatchObject({ currency: 'NGN', country: 'NG', city: 'Lagos' });
    const passion = gigDoc({ isPassionDriven: true, budget: '999' });
    expect((await write(a, 'gigs', passion)).master).toMatchObject({ isPassionDriven: true, budget: '' });
  });

  it('lets only the creator edit or delete, and a stale edit gets the master state back', async () => {
    const a = new TestClient(server.url);
    await signUpWithProfile(a);
    const created = (await write(a, 'gigs', gigDoc())).master!;
    const b = new TestClient(server.url);
    await signUpWithProfile(b);
    expect((await write(b, 'gigs', { ...created, title: 'Stolen' }, created)).refusal).toBe(
      'You do not have permission to edit this gig.',
    );
    expect((await write(b, 'gigs', { ...created, _deleted: true }, created)).refusal).toBe(
      'You do not have permission to delete this gig.',
    );

    const edited = (await write(a, 'gigs', { ...created, title: 'New title' }, created)).master!;
    expect(edited.title).toBe('New title');
    const stale = await write(a, 'gigs', { ...created, title: 'Stale edit' }, created);
    expect(stale.refusal).toBeUndefined();
    expect(stale.master).toMatchObject({ title: 'New title' });

    const deleted = await write(a, 'gigs', { ...edited, _deleted: true }, edited);
    expect(deleted.master).toMatchObject({ _deleted: true });
    const seen = (await pullAll(b, 'gigs')).documents.find((d) => d.id === created.id)!;
    expect(seen._deleted).toBe(true);
  });
});

describe("a request's user record as the decision reads it", () => {
  // A request reads its user when it is authenticated; an edit of that user may land before the
  // request's decision runs (from another device, or on another instance). A first gig and an
  // application write the user's record again (decision 032): what they write must be the record
  // as it is then, or the edit is undone after its author was told it was saved.
  it('a first gig and an application keep the profile edit their author made after the request was authenticated', async () => {
    const buyer = new TestClient(server.url);
    const buyerUser = await signUpWithProfile(buyer);
    const seller = new TestClient(server.url);
    const sellerUser = await signUpWithProfile(seller);
    const authenticated = (id: string) => ({
      session: { id: `session-of-${id}`, userId: id, expiresAt: Date.now() + 60_000, createdAt: Date.now() },
      user: server.ctx.store.get('users', id)!,
    });
    const row = (doc: Record<string, unknown>) => ({
      assumedMasterState: null,
      newDocumentState: { _deleted: false, ...doc },
    });

    const buyerAuth = authenticated(buyerUser.id);
    const buyerOwn = await ownUser(buyer, buyerUser.id);
    expect((await write(buyer, 'users', { ...buyerOwn, bio: 'Muralist, Lagos' }, buyerOwn)).refusal).toBeUndefined();
    const gig = gigDoc({ title: 'First gig' });
    const gigAnswer = await applyPush(server.ctx, buyerAuth, 'gigs', [row(gig)]);
    expect(gigAnswer.refused).toEqual([]);
    expect(server.ctx.store.get('gigs', gig.id as string)).toMatchObject({ title: 'First gig' });
    expect(server.ctx.store.get('users', buyerUser.id)).toMatchObject({ bio: 'Muralist, Lagos' });

    const sellerAuth = authenticated(sellerUser.id);
    const sellerOwn = await ownUser(seller, sellerUser.id);
    expect((await write(seller, 'users', { ...sellerOwn, bio: 'Sign painter' }, sellerOwn)).refusal).toBeUndefined();
    const application = applicationDoc(gig.id as string, sellerUser.id);
    const applied = await applyPush(server.ctx, sellerAuth, 'applications', [row(application)]);
    expect(applied.refused).toEqual([]);
    expect(server.ctx.store.get('users', sellerUser.id)).toMatchObject({ bio: 'Sign painter' });
    expect(server.ctx.store.get('users', buyerUser.id)).toMatchObject({ bio: 'Muralist, Lagos' });
    // And both devices are told so on their next pull.
    expect((await pullAll(seller, 'users')).documents.find((d) => d.id === sellerUser.id)).toMatchObject({
      bio: 'Sign painter',
    });
  });
});
