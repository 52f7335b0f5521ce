import { describe, expect, it } from 'vitest';
import { gigDoc, signUpWithProfile, write } from '../../support/fixtures';
import { TestClient } from '../../support/http-client';
import { snapshotStore, storeDifference } from '../../support/store-snapshot';
import { suite, useHostileSuite } from '../../support/hostile-suite';

useHostileSuite();

describe('named hostile cases', () => {
  it('a pushed gig that forges its owner keeps the real owner; prototype keys are refused per row and never pollute', async () => {
    const fresh = new TestClient(suite.server.url);
    const user = await signUpWithProfile(fresh);
    const ownGig = (await write(fresh, 'gigs', gigDoc())).master!;
    expect(ownGig.createdBy).toBe(user.id);
    const forged = await write(fresh, 'gigs', { ...ownGig, createdBy: suite.w.vb.user.id, title: 'Renamed' }, ownGig);
    expect(forged.refusal).toBeUndefined();
    expect(suite.server.ctx.store.get('gigs', ownGig.id as string)).toMatchObject({
      createdBy: user.id,
      title: 'Renamed',
    });
    const created = await write(fresh, 'gigs', gigDoc({ createdBy: suite.w.vb.user.id, creatorName: 'Vic Buyer' }));
    expect(created.master).toMatchObject({ createdBy: user.id, creatorName: 'Ada Painter' });

    const before = await snapshotStore(suite.server);
    const proto = await fresh.post(
      '/api/sync/gigs/push',
      `[{"newDocumentState":{"id":"${gigDoc().id as string}","__proto__":{"polluted":true}}}]`,
    );
    expect(proto.status).toBe(400);
    expect(proto.body.error).toMatch(/__proto__/);
    expect(storeDifference(before, await snapshotStore(suite.server))).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers unknown collections, bad checkpoints and unknown API paths with 4xx', async () => {
    const c = suite.w.attacker.http;
    expect((await c.get('/api/sync/credentials/pull?seq=0')).status).toBe(404);
    expect((await c.get('/api/sync/sessions/pull?seq=0')).status).toBe(404);
    expect((await c.get('/api/sync/gigs/pull?seq=-1')).status).toBe(400);
    expect((await c.get('/api/sync/gigs/pull?seq=abc')).status).toBe(400);
    expect((await c.get('/api/sync/gigs/pull?seq=0&extra=1')).status).toBe(400);
    expect((await c.get('/api/nope')).status).toBe(404);
  });

  it('a body nested deeper than any document is refused before it is parsed into anything', async () => {
    const depth = 5000;
    const deep = '['.repeat(depth) + ']'.repeat(depth);
    const res = await suite.w.attacker.http.post(
      '/api/sync/gigs/push',
      `[{"newDocumentState":{"id":"${gigDoc().id as string}","title":${deep}}}]`,
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/nested/);
  });
});
