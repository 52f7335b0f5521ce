import { describe, expect, it } from 'vitest';
import { conversationIdFor } from '../../../shared/ids';
import { hashToken } from '../../../sync-server/auth/sessions';
import { applicationDoc, gigDoc, signUpWithProfile, write } from '../../support/fixtures';
import { TestClient } from '../../support/http-client';
import { tryChatSocket } from '../../support/yjs-client';
import { creds, ok, rawStream, useSecurityServer } from '../../support/security-checks';

const security = useSecurityServer('logout');

describe('3. logout revokes the session everywhere', () => {
  it('the old cookie then gets 401 on the session, pull, push, stream and chat socket; other sessions live on', async () => {
    const partner = new TestClient(security.server.url);
    const partnerUser = await signUpWithProfile(partner);
    const gig = (await write(partner, 'gigs', gigDoc())).master!;
    const me = new TestClient(security.server.url);
    const meUser = await signUpWithProfile(me);
    expect((await write(me, 'applications', applicationDoc(gig.id as string, meUser.id))).refusal).toBeUndefined();
    const otherDevice = new TestClient(security.server.url);
    expect((await otherDevice.post('/api/auth/login', creds(meUser))).status).toBe(200);
    const room = conversationIdFor(meUser.id, partnerUser.id);
    const cookie = me.cookieHeader();
    const token = me.sessionToken()!;
    const sessionId = hashToken(token);

    // Before: the cookie works everywhere.
    const old = () => TestClient.withSession(security.server.url, token);
    expect((await old().get('/api/auth/session')).status).toBe(200);
    expect((await old().get('/api/sync/gigs/pull?seq=0')).status).toBe(200);
    const before = await tryChatSocket(security.server.url, room, { cookie, origin: security.server.url });
    expect(before.status).toBe(101);
    if ('socket' in before) before.socket.close();

    expect((await me.post('/api/auth/logout')).body).toEqual({ ok: true });
    expect(security.server.ctx.store.get('sessions', sessionId)).toMatchObject({ _deleted: true });

    expect((await old().get('/api/auth/session')).status).toBe(401);
    ok('logout: session 401');
    expect((await old().get('/api/sync/gigs/pull?seq=0')).status).toBe(401);
    expect((await old().get('/api/sync/users/pull?seq=0')).status).toBe(401);
    ok('logout: pull 401');
    const pushed = await old().post('/api/sync/gigs/push', [{ assumedMasterState: null, newDocumentState: gigDoc() }]);
    expect(pushed.status).toBe(401);
    ok('logout: push 401');
    const stream = await rawStream(security.server.url, cookie);
    expect(stream.status).toBe(401);
    await stream.close();
    ok('logout: stream 401');
    const after = await tryChatSocket(security.server.url, room, { cookie, origin: security.server.url });
    expect(after).toEqual({ status: 401, body: { error: 'Please log in to start a conversation' } });
    ok('logout: chat socket 401');

    expect((await otherDevice.get('/api/auth/session')).status).toBe(200);
    expect((await otherDevice.get('/api/sync/gigs/pull?seq=0')).status).toBe(200);
    ok('logout: the user’s other session lives on');
  });
});

// ---------------------------------------------------------------------------------------------
// 4. Password hashing
