import { LOCAL_FIELDS, REPLICATED_NAMES, type ReplicatedName } from '../../../client/data/collections';
import { conversationIdFor } from '../../../shared/ids';
import type { Application } from '../../../shared/schemas/application';
import type { Gig } from '../../../shared/schemas/gig';
import { EMPTY_GIG_FORM, type GigFormValues } from '../../../shared/validation/gig';
import { linkedByApplication } from '../../../sync-server/domain/links';
import { viewFor } from '../../../sync-server/replication/visibility';
import type { StoredDoc } from '../../../sync-server/store/store';
import { isoDay, signUpWithProfile } from '../fixtures';
import { TestClient } from '../http-client';
import { startTestServer, type TestServer } from '../in-process-server';
import { chatMessage, storedRoom, tryChatSocket } from '../yjs-client';
import { Device, type DeviceWorker } from './device';
import { checkInvariants, linkRefused, type ChatRecord, type History, type WriteRecord } from './invariants';
import { Rng } from '../rng';
import { chatLogOf } from '../store-under-test';
import { startInstances } from '../postgres/instances';

export type SeedStats = {
  operations: number;
  writes: number;
  offlineWrites: number;
  refused: number;
  offlinePeriods: number;
  restarts: number;
  chatMessages: number;
  payments: number;
  settleMs: number;
};

export type SeedOptions = {
  operations: number;
  settleTimeoutMs: number;
  /** Server instances on one PostgreSQL database, each device's requests spread over them (default 1). */
  instances?: number;
};

export type SeedResult = { seed: number; stats: SeedStats; problems: string[] };

const NAMES = ['Ada', 'Ben', 'Cleo', 'Dev', 'Eli', 'Fay', 'Gus', 'Hana', 'Ivo', 'Juno'];
const COUNTRIES = ['CA', 'US', 'GB', 'FR'];

/** The users' pace between two actions: part of the workload, never a wait for some state. */
const think = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Op =
  | 'createGig'
  | 'apply'
  | 'offer'
  | 'accept'
  | 'decline'
  | 'withdraw'
  | 'deleteGig'
  | 'editGig'
  | 'profile'
  | 'chat'
  | 'pay'
  | 'complete'
  | 'offline'
  | 'restart';

const WEIGHTS: Record<Op, number> = {
  createGig: 7,
  apply: 12,
  offer: 14,
  accept: 12,
  decline: 4,
  withdraw: 3,
  deleteGig: 3,
  editGig: 4,
  profile: 7,
  chat: 10,
  pay: 12,
  complete: 3,
  offline: 6,
  restart: 3,
};
// CONVERGENCE_WEIGHTS=profile:40,restart:8 draws those actions more often (to look for a race).
for (const part of (process.env.CONVERGENCE_WEIGHTS ?? '').split(',').filter(Boolean)) {
  const [op, weight] = part.split(':');
  if (!op || !(op in WEIGHTS) || !(Number(weight) >= 0))
    throw new Error(`CONVERGENCE_WEIGHTS: no such action or weight: ${part}`);
  WEIGHTS[op as Op] = Number(weight);
}

const capitalised = (w: string) => w[0]!.toUpperCase() + w.slice(1);

/**
 * One seed: a fresh server, `devices` signed-up users each on a device running the app's data
 * layer, then `operations` random actions by whoever may take them, with offline periods and
 * restarts; then everyone comes online and the run waits until every device holds exactly the
 * server's state, and checks the invariants.
 */
export async function runSeed(seed: number, workers: DeviceWorker[], options: SeedOptions): Promise<SeedResult> {
  const rng = new Rng(seed);
  const cluster = (options.instances ?? 1) > 1 ? await startInstances(options.instances!) : undefined;
  // On several instances, the first one's store is the one read (after catching up with the feed).
  const server = cluster?.servers[0] ?? (await startTestServer({ LOG_LEVEL: 'silent' }));
  const history: History = new Map();
  const unsubscribe = server.ctx.store.onDurable((changes) => {
    for (const c of changes) {
      if (c.collection !== 'applications' && c.collection !== 'gigs' && c.collection !== 'users') continue;
      const key = `${c.collection}:${c.doc.id}`;
      const list = history.get(key) ?? [];
      list.push(structuredClone(c.doc));
      history.set(key, list);
    }
  });
  const stats: SeedStats = {
    operations: 0,
    writes: 0,
    offlineWrites: 0,
    refused: 0,
    offlinePeriods: 0,
    restarts: 0,
    chatMessages: 0,
    payments: 0,
    settleMs: 0,
  };
  const writes: WriteRecord[] = [];
  const chats: ChatRecord[] = [];
  const devices: Device[] = [];
  const offlineUntil = new Map<Device, number>();
  try {
    for (let i = 0; i < workers.length; i++) {
      const http = cluster ? cluster.client() : new TestClient(server.url);
      const name = `${NAMES[i % NAMES.length]} ${capitalised(rng.word(4, 7))}`;
      const user = await signUpWithProfile(http, { name, location: rng.pick(COUNTRIES)! });
      const device = new Device(`${NAMES[i % NAMES.length]}#${i}`, http, user.id, workers[i]!);
      devices.push(device);
      await device.open();
    }

    const record = (
      device: Device,
      kind: WriteRecord['kind'],
      collection: ReplicatedName,
      docId: string,
      fields: Record<string, unknown>,
    ) => {
      writes.push({ device, kind, collection, docId, fields, offline: !device.online, index: writes.length });
      stats.writes += 1;
      if (!device.online) stats.offlineWrites += 1;
    };

    // `operations` actions taken; a drawn action nobody can take now (no candidate) is drawn again.
    let step = 0;
    for (; stats.operations < options.operations && step < options.operations * 20; step++) {
      for (const [d, until] of offlineUntil) {
        if (step >= until) {
          await d.goOnline();
          offlineUntil.delete(d);
        }
      }
      // Devices offline act more often, so writes made offline pile up against a moving server.
      const d = rng.pick(rng.chance(0.35) && offlineUntil.size ? [...offlineUntil.keys()] : devices)!;
      const op = rng.weighted(Object.entries(WEIGHTS) as [Op, number][]);
      if (process.env.CONVERGENCE_DEBUG) console.log(`step ${step}: ${d.label} ${op}${d.online ? '' : ' (offline)'}`);
      const did = await perform(op, d);
      if (did) stats.operations += 1;
      await think(rng.int(0, 30));
    }

    async function perform(op: Op, d: Device): Promise<boolean> {
      const local = await d.snapshot();
      const me = local.docs.users.find((u) => u.id === d.userId);
      const apps = local.docs.applications as unknown as Application[];
      switch (op) {
        case 'createGig': {
          const values: GigFormValues = {
            ...EMPTY_GIG_FORM,
            title: `${capitalised(rng.word())} ${rng.word()} poster`,
            description: `A ${rng.word()} piece for a ${rng.word()} project, delivered as a print-ready file.`,
            category: 'Visual Art',
            locationType: 'remote',
            budget: '500-1000',
            skills: 'Illustration, Painting',
            projectDeadline: isoDay(rng.int(5, 60)),
          };
          const id = await d.write<string>({ type: 'createGig', values });
          record(d, 'createGig', 'gigs', id, { title: values.title });
          return true;
        }
        case 'apply': {
          if (!me) return false;
          const mine = new Set(apps.filter((a) => a.applicantId === d.userId).map((a) => a.gigId));
          const gigs = (local.docs.gigs as unknown as Gig[]).filter((g) => g.createdBy !== d.userId && !mine.has(g.id));
          const gig = rng.pick(gigs);
          if (!gig) return false;
          const rate = rng.int(10, 2000) * 100;
          const id = await d.write<string | null>({ type: 'apply', gigId: gig.id, rate });
          if (id === null) return false; // the gig went from the device since the snapshot
          record(d, 'apply', 'applications', id, { gigId: gig.id, applicantId: d.userId, budget: rate });
          return true;
        }
        case 'offer': {
          const app = rng.pick(apps.filter((a) => a.creatorId === d.userId && a.status === 'PENDING'));
          if (!app) return false;
          const finalBudget = rng.chance(0.25) ? 0 : rng.int(10, 2000) * 100;
          if ((await d.write<string | null>({ type: 'offer', applicationId: app.id, finalBudget })) === null)
            return false;
          record(d, 'offer', 'applications', app.id, { status: 'PENDING_ACCEPTANCE', finalBudget });
          return true;
        }
        case 'accept': {
          const app = rng.pick(apps.filter((a) => a.applicantId === d.userId && a.status === 'PENDING_ACCEPTANCE'));
          if (!app) return false;
          if ((await d.write<string | null>({ type: 'accept', applicationId: app.id })) === null) return false;
          record(d, 'accept', 'applications', app.id, {
            status: (app.finalBudget ?? 0) > 0 ? 'PENDING_PAYMENT' : 'IN_PROGRESS',
          });
          return true;
        }
        case 'decline': {
          const app = rng.pick(apps.filter((a) => a.applicantId === d.userId && a.status === 'PENDING_ACCEPTANCE'));
          if (!app) return false;
          if ((await d.write<string | null>({ type: 'decline', applicationId: app.id })) === null) return false;
          record(d, 'decline', 'applications', app.id, { status: 'REJECTED', finalBudget: null });
          return true;
        }
        case 'withdraw': {
          const app = rng.pick(apps.filter((a) => a.applicantId === d.userId && a.status === 'PENDING'));
          if (!app) return false;
          if ((await d.write<string | null>({ type: 'withdraw', applicationId: app.id })) === null) return false;
          record(d, 'withdraw', 'applications', app.id, { status: 'WITHDRAWN' });
          return true;
        }
        case 'deleteGig': {
          const gig = rng.pick((local.docs.gigs as unknown as Gig[]).filter((g) => g.createdBy === d.userId));
          if (!gig) return false;
          await d.write({ type: 'deleteGig', gigId: gig.id });
          record(d, 'deleteGig', 'gigs', gig.id, { _deleted: true, title: gig.title });
          return true;
        }
        case 'editGig': {
          const gig = rng.pick((local.docs.gigs as unknown as Gig[]).filter((g) => g.createdBy === d.userId));
          if (!gig) return false;
          const title = `${capitalised(rng.word())} ${rng.word()} poster, edited`;
          if ((await d.write<string | null>({ type: 'editGig', gigId: gig.id, title })) === null) return false;
          record(d, 'editGig', 'gigs', gig.id, { title });
          return true;
        }
        case 'profile': {
          if (!me) return false;
          const field = rng.pick(['bio', 'bio', 'name', 'location'] as const)!;
          const value =
            field === 'bio'
              ? `${capitalised(rng.word())} ${rng.word()} ${rng.word()}.`
              : field === 'name'
                ? `${d.label.split('#')[0]} ${capitalised(rng.word(4, 8))}`
                : rng.pick(COUNTRIES)!;
          await d.write({ type: 'profile', field, value });
          record(d, 'profile', 'users', d.userId, { [field]: value });
          return true;
        }
        case 'chat': {
          const others = [...new Set(apps.map((a) => (a.applicantId === d.userId ? a.creatorId : a.applicantId)))];
          const other = rng.pick(others);
          if (!other) return false;
          const room = conversationIdFor(d.userId, other);
          if (process.env.CONVERGENCE_DEBUG) {
            const links = apps
              .filter((a) => a.applicantId === other || a.creatorId === other)
              .map((a) => `${a.id}:${a.status}`);
            console.log(`  chat ${d.label} -> ${other}, linked locally by [${links.join(' ')}]`);
          }
          const message = chatMessage(
            d.userId,
            other,
            `${capitalised(rng.word())} ${rng.word()} (seed ${seed}, #${chats.length})`,
          );
          const offline = !d.online;
          d.sendChat(room, message);
          chats.push({ device: d, room, message, offline });
          stats.chatMessages += 1;
          return true;
        }
        case 'pay': {
          if (!d.online) return false;
          const app = rng.pick(apps.filter((a) => a.creatorId === d.userId && a.status === 'PENDING_PAYMENT'));
          if (!app) return false;
          const checkout = await d.http.post<{ url: string; sessionId: string }>('/api/payments/checkout', {
            applicationId: app.id,
          });
          if (checkout.status !== 200) return true; // the local view was behind the server's: refused, nothing changed
          const paid = await d.http.post(`/api/payments/simulated/checkout/${checkout.body.sessionId}/pay`, {});
          if (paid.status === 200) stats.payments += 1;
          return true;
        }
        case 'complete': {
          if (!d.online) return false;
          const app = rng.pick(apps.filter((a) => a.creatorId === d.userId && a.status === 'IN_PROGRESS'));
          if (!app) return false;
          await d.http.post('/api/gigs/complete-gig', {
            gigId: app.gigId,
            applicationId: app.id,
            userId: d.userId,
            userType: 'buyer',
          });
          return true;
        }
        case 'offline': {
          if (!d.online) return false;
          await d.goOffline();
          offlineUntil.set(d, step + rng.int(10, 60));
          stats.offlinePeriods += 1;
          return true;
        }
        case 'restart': {
          await d.restart();
          stats.restarts += 1;
          return true;
        }
      }
    }

    // Everyone comes back online; wait until every device holds exactly the server's state.
    for (const d of devices) if (!d.online) await d.goOnline();
    offlineUntil.clear();
    const settleStart = Date.now();
    let last: string[] = [];
    for (;;) {
      last = await divergences(server, devices);
      if (last.length === 0) break;
      if (process.env.CONVERGENCE_DEBUG) console.log(`settling: ${last.length} difference(s), first: ${last[0]}`);
      if (Date.now() - settleStart > options.settleTimeoutMs) {
        const also = await checkInvariants({ server, devices, history, writes, chats });
        return {
          seed,
          stats,
          problems: [`not converged after ${options.settleTimeoutMs} ms:`, ...last.slice(0, 20), ...also],
        };
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    stats.settleMs = Date.now() - settleStart;

    const problems = await checkInvariants({ server, devices, history, writes, chats });
    for (const d of devices) stats.refused += (await d.snapshot()).syncproblems.length;
    return { seed, stats, problems };
  } finally {
    unsubscribe();
    for (const d of devices) await d.dispose().catch(() => {});
    if (cluster) await cluster.close();
    else await server.cleanup();
  }
}

const IGNORED = new Set(['_meta', '_rev', '_attachments', '_deleted']);

/** A document's fields as both sides should hold them, keys sorted, for comparison. */
export function canonical(collection: string, doc: Record<string, unknown>): string {
  const local = LOCAL_FIELDS[collection] ?? [];
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(doc).sort()) {
    if (IGNORED.has(k) || local.includes(k) || doc[k] === undefined) continue;
    out[k] = doc[k];
  }
  return JSON.stringify(out);
}

/** What `userId` may see of each collection on the server now, by id. */
export function serverViewFor(server: TestServer, userId: string, collection: ReplicatedName): Map<string, string> {
  const out = new Map<string, string>();
  for (const doc of server.ctx.store.all(collection)) {
    if (doc._deleted) continue;
    const view = viewFor(server.ctx.store, userId, collection, doc as StoredDoc);
    if (view) out.set(doc.id, canonical(collection, view));
  }
  return out;
}

/** Every difference between a device's data and the server's (empty once converged). */
export async function divergences(server: TestServer, devices: Device[]): Promise<string[]> {
  const out: string[] = [];
  // What any instance committed is here (a no-op on the embedded store).
  await server.ctx.store.catchUp();
  for (const d of devices) {
    const snap = await d.snapshot();
    if (snap.outbox > 0) out.push(`${d.label}: ${snap.outbox} local change(s) still waiting to go out`);
    for (const name of REPLICATED_NAMES) {
      const expected = serverViewFor(server, d.userId, name);
      const local = new Map<string, string>();
      for (const doc of snap.docs[name]) local.set(String(doc.id), canonical(name, doc));
      for (const [id, want] of expected) {
        const have = local.get(id);
        if (have === undefined) out.push(`${d.label}: ${name}/${id} missing locally`);
        else if (have !== want) out.push(`${d.label}: ${name}/${id} differs\n    local  ${have}\n    server ${want}`);
      }
      for (const id of local.keys())
        if (!expected.has(id)) out.push(`${d.label}: ${name}/${id} held locally, not on the server for this user`);
    }
    for (const [room, c] of d.openChats()) {
      // Never deliverable (checked by the invariants): only a refused application linked the two.
      if (linkRefused(server.ctx.store, d.userId, snap.syncproblems, room)) continue;
      const stored = storedRoom(await chatLogOf(server.ctx.store, room));
      const want = stored.messages.map((m) => m.id).sort();
      const have = c.messages
        .toArray()
        .map((m) => m.id)
        .sort();
      if (JSON.stringify(want) !== JSON.stringify(have)) {
        const closed = c.closedWith();
        out.push(
          `${d.label}: chat ${room} holds ${have.length} message(s), the server ${want.length}` +
            ` (socket ${c.provider.wsconnected ? 'open' : 'not open'}, synced ${String(c.provider.synced)}${closed ? `, closed ${closed.code} ${closed.reason}` : ''}` +
            `, linked on the server: ${String(linkedByApplication(server.ctx.store, room.split('_')[0]!, room.split('_')[1]!))}` +
            `, upgrade now: ${JSON.stringify(await tryChatSocket(server.url, room, { cookie: d.http.cookieHeader(), origin: d.http.originHeader ?? server.url }).then((r) => ('socket' in r ? (r.socket.close(), 101) : r)))})`,
        );
      }
      const unstamped = have.filter((id) => !c.stamps.has(id));
      if (unstamped.length)
        out.push(`${d.label}: chat ${room} has ${unstamped.length} message(s) without a server stamp`);
    }
    for (const room of d.rooms())
      if (!d.openChats().some(([r]) => r === room)) out.push(`${d.label}: chat ${room} not reopened`);
  }
  return out;
}
