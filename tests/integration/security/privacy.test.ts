import { describe, expect, it } from 'vitest';
import { conversationIdFor } from '../../../shared/ids';
import { REPLICATED } from '../../../sync-server/replication/visibility';
import {
  applicationDoc,
  createPayoutAccount,
  gigDoc,
  offerAndAccept,
  ownUser,
  pullAll,
  signUpWithProfile,
  write,
  type SignedUpUser,
} from '../../support/fixtures';
import { waitFor } from '../../support/wait';
import { chatMessage, openChat, tryChatSocket } from '../../support/yjs-client';
import {
  chatRecorder,
  occurrences,
  ok,
  rawStream,
  RecordingClient,
  useSecurityServer,
} from '../../support/security-checks';

const security = useSecurityServer('privacy');

describe('6. emails and payout ids never reach another user', () => {
  it(
    'scans every byte a linked user and a stranger receive through a whole gig: HTTP, pulls, stream, chat',
    { timeout: 60_000 },
    async () => {
      const buyer = new RecordingClient(security.server.url);
      const buyerUser = await signUpWithProfile(buyer, { name: 'Bea Buyer' });
      const seller = new RecordingClient(security.server.url);
      const sellerUser = await signUpWithProfile(seller, { name: 'Sam Seller' });
      const stranger = new RecordingClient(security.server.url);
      const strangerUser = await signUpWithProfile(stranger, { name: 'Stan Stranger' });
      const streams = {
        buyer: await rawStream(security.server.url, buyer.cookieHeader()),
        seller: await rawStream(security.server.url, seller.cookieHeader()),
        stranger: await rawStream(security.server.url, stranger.cookieHeader()),
      };

      /** Creates the payout account and completes the simulated onboarding. */
      const connectPayouts = async (client: RecordingClient, user: SignedUpUser) => {
        const res = await createPayoutAccount(client, user);
        expect(res.status).toBe(200);
        expect((await client.post(res.body.accountLink.slice(security.server.url.length), {})).status).toBe(200);
        return res.body.accountId;
      };

      // The buyer has a payout account before the link, the seller gets one after it (so the change
      // to the seller's record flows to the buyer's stream as a public profile).
      const buyerAccount = await connectPayouts(buyer, buyerUser);
      const gig = (await write(buyer, 'gigs', gigDoc({ title: 'Leak check mural' }))).master!;
      const applied = (await write(seller, 'applications', applicationDoc(gig.id as string, sellerUser.id))).master!;
      const sellerAccount = await connectPayouts(seller, sellerUser);
      const sellerOwn = await ownUser(seller, sellerUser.id);
      expect(
        (await write(seller, 'users', { ...sellerOwn, bio: 'Printmaker and muralist' }, sellerOwn)).refusal,
      ).toBeUndefined();

      // Until an offer is accepted the application links them but shares neither email (decision 003):
      // applying costs nothing, so it must not be a way to collect creators' emails.
      for (const client of [buyer, seller]) await pullAll(client, 'applications');
      await waitFor('both streams saw the application', () =>
        [streams.buyer, streams.seller].every((s) => s.text().includes(applied.id as string)),
      );
      const beforeAcceptance = {
        buyer: occurrences(buyer.received.join('\n') + streams.buyer.text(), sellerUser.email),
        seller: occurrences(seller.received.join('\n') + streams.seller.text(), buyerUser.email),
      };
      expect(beforeAcceptance).toEqual({ buyer: 0, seller: 0 });
      ok('before an offer is accepted: neither email reaches the other side (answers, pulls, stream)');

      const accepted = await offerAndAccept(buyer, seller, applied, 30_000);
      expect(accepted.status).toBe('PENDING_PAYMENT');
      const checkout = await buyer.post<{ sessionId: string }>('/api/payments/checkout', { applicationId: applied.id });
      expect(checkout.status).toBe(200);
      expect((await buyer.post(`/api/payments/simulated/checkout/${checkout.body.sessionId}/pay`, {})).status).toBe(
        200,
      );
      expect(
        (await buyer.post('/api/payments/confirm', { applicationId: applied.id, sessionId: checkout.body.sessionId }))
          .status,
      ).toBe(200);

      const room = conversationIdFor(buyerUser.id, sellerUser.id);
      expect(
        (
          await write(buyer, 'conversations', {
            id: room,
            participants: [buyerUser.id, sellerUser.id].sort(),
            lastMessageRead: true,
          })
        ).refusal,
      ).toBeUndefined();
      const recorders = { buyer: chatRecorder(buyer, room), seller: chatRecorder(seller, room) };
      await Promise.all([recorders.buyer.opened, recorders.seller.opened]);
      const chats = { buyer: openChat(buyer, room), seller: openChat(seller, room) };
      await Promise.all([chats.buyer.synced(), chats.seller.synced()]);
      chats.buyer.provider.awareness.setLocalState({ user: { id: buyerUser.id, name: buyerUser.name }, typing: true });
      chats.seller.provider.awareness.setLocalState({
        user: { id: sellerUser.id, name: sellerUser.name },
        typing: true,
      });
      chats.buyer.send(chatMessage(buyerUser.id, sellerUser.id, 'Payment is in, go ahead.'));
      chats.seller.send(chatMessage(sellerUser.id, buyerUser.id, 'Sketches attached, first pass.'));
      await waitFor('both messages stamped', () => chats.buyer.stamps.size === 2 && chats.seller.stamps.size === 2);
      await waitFor('the recorders saw both messages', () =>
        [recorders.buyer, recorders.seller].every(
          (r) => r.bytes().includes('go ahead.') && r.bytes().includes('first pass.'),
        ),
      );
      const strangerChat = await tryChatSocket(security.server.url, room, {
        cookie: stranger.cookieHeader(),
        origin: security.server.url,
      });
      expect(strangerChat.status).toBe(403);
      const strangerChatBytes = JSON.stringify(strangerChat);

      const done = await buyer.post('/api/gigs/complete-gig', {
        gigId: gig.id,
        applicationId: applied.id,
        userId: buyerUser.id,
        userType: 'buyer',
      });
      expect(done.body).toEqual({ success: true, payout: 'sent', amount: 27_000 });
      expect(security.server.ctx.store.get('ledger', `transfer:${applied.id as string}`)).toMatchObject({
        destination: sellerAccount,
      });
      // Completion opens the review window: the requests to review and both reputations are
      // written by the timers the completion pokes. Let that look finish before everyone pulls.
      await security.server.timers.runDue();

      // Every party pulls everything, and each stream catches up to a last public change.
      for (const client of [buyer, seller, stranger]) {
        for (const collection of REPLICATED) await pullAll(client, collection);
        await client.get('/api/auth/session');
      }
      const marker = (await write(stranger, 'gigs', gigDoc({ title: 'Marker' }))).master!;
      await waitFor('every stream saw the marker gig', () =>
        Object.values(streams).every((s) => s.text().includes(marker.id as string)),
      );
      for (const s of Object.values(streams)) await s.close();
      for (const c of Object.values(chats)) c.destroy();
      for (const r of Object.values(recorders)) r.close();

      const received = {
        buyer: {
          http: buyer.received.join('\n'),
          stream: streams.buyer.text(),
          chat: recorders.buyer.bytes().toString('latin1'),
        },
        seller: {
          http: seller.received.join('\n'),
          stream: streams.seller.text(),
          chat: recorders.seller.bytes().toString('latin1'),
        },
        stranger: { http: stranger.received.join('\n'), stream: streams.stranger.text(), chat: strangerChatBytes },
      };

      // The scan can see: each user's own email and payout id did reach them, and the linked
      // user's public profile (bio) reached the buyer through both pull and stream.
      for (const [who, user, account] of [
        ['buyer', buyerUser, buyerAccount],
        ['seller', sellerUser, sellerAccount],
      ] as const) {
        expect(occurrences(received[who].http, user.email)).toBeGreaterThan(0);
        expect(occurrences(received[who].http, account)).toBeGreaterThan(0);
      }
      expect(received.buyer.http).toContain('Printmaker and muralist');
      expect(received.buyer.stream).toContain('Printmaker and muralist');
      expect(received.buyer.stream).toContain(sellerUser.id);
      expect(occurrences(received.buyer.http, sellerUser.email)).toBeGreaterThan(0); // on the application
      ok('the scan sees own secrets and the linked public profile');

      const secrets = [
        { owner: 'seller', email: sellerUser.email, account: sellerAccount, linked: 'buyer' },
        { owner: 'buyer', email: buyerUser.email, account: buyerAccount, linked: 'seller' },
      ] as const;
      const applicationEmailFields = ['creatorEmail', 'applicantEmail'];
      for (const s of secrets) {
        for (const channel of ['http', 'stream', 'chat'] as const) {
          const linkedBytes = received[s.linked][channel];
          expect({ who: s.linked, channel, of: s.owner, account: occurrences(linkedBytes, s.account) }).toEqual({
            who: s.linked,
            channel,
            of: s.owner,
            account: 0,
          });
          expect({
            who: s.linked,
            channel,
            of: s.owner,
            email: occurrences(linkedBytes, s.email, applicationEmailFields),
          }).toEqual({ who: s.linked, channel, of: s.owner, email: 0 });
          ok(`${s.linked} ${channel}: no payout id of the ${s.owner}, the email only on the application`);
          const strangerBytes = received.stranger[channel];
          expect({
            who: 'stranger',
            channel,
            of: s.owner,
            email: occurrences(strangerBytes, s.email),
            account: occurrences(strangerBytes, s.account),
          }).toEqual({
            who: 'stranger',
            channel,
            of: s.owner,
            email: 0,
            account: 0,
          });
          ok(`stranger ${channel}: no email or payout id of the ${s.owner}`);
        }
      }
      // The stranger's own secrets stay theirs too.
      const strangerOwn = await ownUser(stranger, strangerUser.id);
      expect(strangerOwn.email).toBe(strangerUser.email);
      for (const who of ['buyer', 'seller'] as const) {
        for (const channel of ['http', 'stream', 'chat'] as const)
          expect(occurrences(received[who][channel], strangerUser.email)).toBe(0);
      }
      ok('nobody receives the stranger’s email');
    },
  );
});

// ---------------------------------------------------------------------------------------------
// 7. The app's origin when PUBLIC_ORIGIN is not set
