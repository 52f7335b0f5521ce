import crypto from 'node:crypto';
import { subscriptionsOf } from '../../../../sync-server/push/subscriptions';
import type { TestClient } from '../../http-client';
import { Action, http, selfOf } from '../cells';
import type { Member, Role, World } from '../world';

/**
 * A device subscription as a browser makes one: an FCM endpoint (a push service the server accepts
 * by default) and a real P-256 key. It asks for no notification types, so the matrix's other cells
 * never make the server send to the (unreachable) push service.
 */
function device(): { endpoint: string; keys: { p256dh: string; auth: string } } {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `https://fcm.googleapis.com/fcm/send/${crypto.randomBytes(16).toString('base64url')}`,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: crypto.randomBytes(16).toString('base64url') },
  };
}

const isLive = (w: World, userId: string, endpoint: string) =>
  subscriptionsOf(w.server.ctx.store, userId).some((d) => d.endpoint === endpoint);

/** Another member, with notifications on for a device of theirs. */
async function victimDevice(w: World, role: Role): Promise<{ victim: Member; endpoint: string }> {
  const victim: Member = selfOf(role) === 'buyer' ? 'applicant' : 'buyer';
  const d = device();
  const res = await (w.clients[victim] as TestClient).post('/api/push/subscribe', { ...d, types: [] });
  if (res.status !== 200) throw new Error(`fixture: subscription of ${victim} failed: ${res.status}`);
  return { victim, endpoint: d.endpoint };
}

/** The matrix's cells for web push (issue 17): the key, and turning notifications on and off. */
export const WEB_PUSH_ACTIONS: Action[] = [
  {
    name: 'GET /api/push/key',
    run: async (w, r) => http(await w.clients[r].get('/api/push/key'), (res) => res.status === 200),
  },
  {
    name: 'POST /api/push/subscribe (this device)',
    run: async (w, r) => {
      const d = device();
      const res = await w.clients[r].post('/api/push/subscribe', { ...d, types: [] });
      return http(res, () => isLive(w, w.users[selfOf(r)].id, d.endpoint));
    },
  },
  {
    name: "GET /api/push/subscription (another user's device)",
    run: async (w, r) => {
      const { endpoint } = await victimDevice(w, r);
      const res = await w.clients[r].get<{ subscribed?: boolean }>(
        `/api/push/subscription?endpoint=${encodeURIComponent(endpoint)}`,
      );
      return http(res, (x) => (x.body as { subscribed?: boolean }).subscribed === true);
    },
  },
  {
    name: "POST /api/push/unsubscribe (another user's device)",
    run: async (w, r) => {
      const { victim, endpoint } = await victimDevice(w, r);
      const res = await w.clients[r].post('/api/push/unsubscribe', { endpoint });
      return http(res, () => !isLive(w, w.users[victim].id, endpoint));
    },
  },
];
