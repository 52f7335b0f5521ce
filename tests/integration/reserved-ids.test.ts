import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationIdFor, INVALID_ID_MESSAGE } from '../../shared/ids';
import { applicationDoc, gigDoc, person, pullAll, write } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/in-process-server';

/**
 * Issue 18: an id such as `toString` resolves to a built-in member wherever a device keys state
 * by id in a plain object, and RxDB's pull then drops the whole batch it came in.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.cleanup();
});

const BUILT_IN_IDS = ['toString', 'constructor', 'hasOwnProperty', 'valueOf', 'propertyIsEnumerable', '__proto__'];

describe('ids named after built-in object members', () => {
  it.each(BUILT_IN_IDS)('a pushed gig with the id %s is refused with a clear reason and not stored', async (id) => {
    const buyer = await person(server.url);
    const { refusal, master } = await write(buyer.http, 'gigs', gigDoc({ id }));
    expect(refusal).toBe(INVALID_ID_MESSAGE);
    expect(master).toMatchObject({ id, _deleted: true });
    expect(server.ctx.store.get('gigs', id)).toBeUndefined();
  });

  it('a pushed application whose id is built from such a name is refused, as is one under a real gig', async () => {
    const buyer = await person(server.url);
    const seller = await person(server.url);
    const gig = (await write(buyer.http, 'gigs', gigDoc())).master!;
    const poisoned = await write(seller.http, 'applications', applicationDoc('toString', seller.user.id));
    expect(poisoned.refusal).toBe(INVALID_ID_MESSAGE);
    const constructorId = await write(seller.http, 'applications', {
      ...applicationDoc(gig.id as string, seller.user.id),
      id: 'constructor',
    });
    expect(constructorId.refusal).toBe(INVALID_ID_MESSAGE);
    expect(server.ctx.store.get('applications', 'constructor')).toBeUndefined();
    // The real application still goes through.
    const real = await write(seller.http, 'applications', applicationDoc(gig.id as string, seller.user.id));
    expect(real.refusal).toBeUndefined();
    expect(real.master).toMatchObject({ id: applicationIdFor(gig.id as string, seller.user.id), status: 'PENDING' });
  });

  it('a document with such an id already in the store (written before the rule) is served to nobody', async () => {
    const buyer = await person(server.url);
    const legit = (await write(buyer.http, 'gigs', gigDoc())).master!;
    await server.ctx.store.commit([
      { collection: 'gigs', doc: { ...gigDoc({ id: 'valueOf', createdBy: buyer.user.id }), _deleted: false } },
    ]);
    const { documents } = await pullAll(buyer.http, 'gigs');
    expect(documents.map((d) => d.id)).toContain(legit.id);
    expect(documents.map((d) => d.id)).not.toContain('valueOf');
    // A push naming it is refused like any other such id and answered with a tombstone, not the stored document.
    const { refusal, master } = await write(buyer.http, 'gigs', gigDoc({ id: 'valueOf', title: 'Edited' }));
    expect(refusal).toBe(INVALID_ID_MESSAGE);
    expect(master).toMatchObject({ id: 'valueOf', _deleted: true });
    expect(server.ctx.store.get('gigs', 'valueOf')?.title).not.toBe('Edited');
  });
});
