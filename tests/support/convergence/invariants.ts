import type { ReplicatedName } from '../../../client/data/collections';
import { CHANGED_ELSEWHERE_FIRST } from '../../../client/data/conflict-handler';
import {
  closeForFilledGig,
  normalizeStatus,
  SYSTEM_ACTOR,
  transition,
  type ApplicationEvent,
} from '../../../shared/application-machine';
import type { ChatDocMessage } from '../../../shared/chat-doc';
import { participantsOf } from '../../../shared/ids';
import type { Application } from '../../../shared/schemas/application';
import { linkedByApplication } from '../../../sync-server/domain/links';
import type { Store, StoredDoc } from '../../../sync-server/store/store';
import type { TestServer } from '../in-process-server';
import { storedRoom, tryChatSocket } from '../yjs-client';
import type { Device } from './device';
import type { DeviceSnapshot } from './protocol';
import { chatLogOf } from '../store-under-test';

/** Every durable version of each gig, application and user, in commit order, keyed `collection:id`. */
export type History = Map<string, StoredDoc[]>;

/** A write a device made to its local database through the app's own write functions. */
export type WriteRecord = {
  device: Device;
  kind: 'createGig' | 'deleteGig' | 'editGig' | 'apply' | 'offer' | 'accept' | 'decline' | 'withdraw' | 'profile';
  collection: ReplicatedName;
  docId: string;
  /** What the write set: the fields a landing or a refusal must show. */
  fields: Record<string, unknown>;
  offline: boolean;
  index: number;
};

export type ChatRecord = { device: Device; room: string; message: ChatDocMessage; offline: boolean };

/**
 * Whether a chat room's only link was an application this device wrote (offline, say) and the
 * server then refused, e.g. because the gig's owner had deleted the gig before it arrived: the
 * two users were never linked on the server, so the room is refused (403) and what this device
 * wrote in it cannot be delivered. The refusal is kept in the device's sync problems, which is
 * what the user is shown; the messages must then never reach the server's room.
 */
export function linkRefused(
  store: Store,
  userId: string,
  problems: DeviceSnapshot['syncproblems'],
  room: string,
): boolean {
  const [a, b] = participantsOf(room) ?? [];
  if (!a || !b || linkedByApplication(store, a, b)) return false;
  const other = a === userId ? b : a;
  return problems.some((p) => {
    if (p.collectionName !== 'applications') return false;
    const c = JSON.parse(p.content) as { applicantId?: unknown; creatorId?: unknown };
    return (c.applicantId === userId && c.creatorId === other) || (c.applicantId === other && c.creatorId === userId);
  });
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Whether `next` follows from `prev` by one move of the state machine, made by either party. */
function allowedMove(prev: StoredDoc, next: StoredDoc): boolean {
  const application = prev as unknown as Application;
  const gig = prev.gigDeleted
    ? undefined
    : { id: String(prev.gigId), createdBy: String(prev.creatorId), title: String(prev.gigTitle) };
  const events: ApplicationEvent[] = [
    { type: 'SEND_OFFER', finalBudget: typeof next.finalBudget === 'number' ? next.finalBudget : -1 },
    { type: 'ACCEPT' },
    { type: 'DECLINE' },
    { type: 'WITHDRAW_APPLICATION' },
    { type: 'CONFIRM_PAYMENT' },
    { type: 'COMPLETE' },
  ];
  // The server closes a waiting applicant when the gig fills (decision 014): not a party's move.
  const closed = closeForFilledGig(application, String(prev.gigTitle));
  if (
    closed &&
    normalizeStatus(String(next.status)) === closed.changes.status &&
    same(next.finalBudget, closed.changes.finalBudget)
  )
    return true;
  for (const actorId of [String(prev.creatorId), String(prev.applicantId)]) {
    for (const event of events) {
      const r = transition({ actor: { id: actorId, name: 'x' }, application, gig, event, now: Number(next.updatedAt) });
      if (!r.ok) continue;
      const changes = r.changes as Record<string, unknown>;
      if (changes.status !== normalizeStatus(String(next.status))) continue;
      if ('finalBudget' in changes && !same(changes.finalBudget, next.finalBudget)) continue;
      if ('paymentConfirmedAt' in changes !== Boolean(next.paymentConfirmedAt && !prev.paymentConfirmedAt)) continue;
      return true;
    }
  }
  // The server's own moves: the payment provider's answer ends a settlement (SETTLING → COMPLETED,
  // or back where a refused release came from). Judged by the same machine, as the system actor.
  const serverEvents: ApplicationEvent[] = [
    { type: 'SETTLED' },
    { type: 'SETTLEMENT_REFUSED', failure: 'refused' },
    { type: 'AUTO_RELEASE' },
  ];
  for (const event of serverEvents) {
    const r = transition({ actor: SYSTEM_ACTOR, application, gig, event, now: Number(next.updatedAt) });
    if (r.ok && r.changes.status === normalizeStatus(String(next.status))) return true;
  }
  return false;
}

const paidOrFree = (a: Record<string, unknown>) =>
  !['IN_PROGRESS', 'COMPLETED'].includes(String(a.status)) ||
  !(Number(a.finalBudget ?? 0) > 0) ||
  Boolean(a.paymentConfirmedAt);

/** The notification types one application move writes, each at most once per application. */
const ONCE_PER_APPLICATION = [
  'new_application',
  'application_status',
  'FINAL_BUDGET_OFFER',
  'OFFER_REJECTED',
  'payment_needed',
  'GIG_STARTED',
  'PAYMENT_CONFIRMED',
  'GIG_COMPLETED',
];

function landed(w: WriteRecord, versions: StoredDoc[], writes: WriteRecord[]): boolean {
  switch (w.kind) {
    case 'createGig':
      if (versions.some((v) => !v._deleted && v.createdBy === w.device.userId && v.title === w.fields.title))
        return true;
      // Renamed on the same device before it went out: the edit's own check covers what landed.
      return writes.some(
        (o) => o.index > w.index && o.device === w.device && o.docId === w.docId && o.kind === 'editGig',
      );
    case 'deleteGig':
      return versions.some((v) => v._deleted);
    case 'editGig':
      if (versions.some((v) => v.title === w.fields.title)) return true;
      // A later edit or the deletion of the gig on the same device replaced it before it went out.
      return writes.some(
        (o) =>
          o.index > w.index &&
          o.device === w.device &&
          o.docId === w.docId &&
          (o.kind === 'editGig' || o.kind === 'deleteGig'),
      );
    case 'apply':
      return versions.some((v) => v.applicantId === w.device.userId && v.budget === w.fields.budget);
    case 'offer':
      return versions.some((v) => v.status === 'PENDING_ACCEPTANCE' && v.finalBudget === w.fields.finalBudget);
    case 'accept':
      return versions.some(
        (v) => v.status === w.fields.status && (w.fields.status === 'PENDING_PAYMENT' || !v.paymentConfirmedAt),
      );
    case 'decline':
      return versions.some((v) => v.status === 'REJECTED');
    case 'withdraw':
      return versions.some((v) => v.status === 'WITHDRAWN');
    case 'profile': {
      const [field, value] = Object.entries(w.fields)[0]!;
      if (versions.some((v) => v[field] === value)) return true;
      // A later edit of the same field on the same device replaced it before it went out.
      return writes.some(
        (o) => o.index > w.index && o.device === w.device && o.kind === 'profile' && field in o.fields,
      );
    }
  }
}

/**
 * The invariants checked once every device is online and holds the server's state:
 * - no version of a gig, application or user is stamped before the one it follows;
 * - each application's status history starts at PENDING and moves only by the state machine;
 * - no application is in progress or completed on an unpaid budget, at any point of its history;
 * - no duplicates: one notification per application move, one unread message notice per
 *   conversation, each chat message once in the server's room and in every device's copy;
 * - the last profile field and gig title each device wrote is the server's, unless refused;
 * - every write a device made either landed on the server or is in that device's sync problems
 *   with its content; every chat message sent reached the server, stamped, except in a room whose
 *   only link was an application the server refused (`linkRefused`): there the refusal is kept,
 *   the server answers the room with 403 and the message is not in its room;
 * - no session was reported gone, no chat socket was closed by the server.
 */
export async function checkInvariants(input: {
  server: TestServer;
  devices: Device[];
  history: History;
  writes: WriteRecord[];
  chats: ChatRecord[];
}): Promise<string[]> {
  const { server, devices, history, writes, chats } = input;
  const store = server.ctx.store;
  const problems: string[] = [];

  // A device refuses a pulled version older than the one it holds (client/data/pull-versions.ts):
  // every version the server stores is as late as the one before, or later.
  for (const [key, versions] of history)
    for (let i = 1; i < versions.length; i++)
      if (Number(versions[i]!.updatedAt) < Number(versions[i - 1]!.updatedAt))
        problems.push(
          `${key}: version ${i} is stamped ${String(versions[i]!.updatedAt)}, before ${String(versions[i - 1]!.updatedAt)}`,
        );

  for (const [key, versions] of history) {
    if (!key.startsWith('applications:')) continue;
    if (versions[0]!.status !== 'PENDING') problems.push(`${key} started as ${String(versions[0]!.status)}`);
    for (let i = 1; i < versions.length; i++) {
      const prev = versions[i - 1]!;
      const next = versions[i]!;
      if (prev.status === next.status) {
        if (!same(prev.finalBudget, next.finalBudget) || !same(prev.paymentConfirmedAt, next.paymentConfirmedAt)) {
          problems.push(`${key}: finalBudget or payment changed without a move (${String(prev.status)})`);
        }
      } else if (!allowedMove(prev, next)) {
        problems.push(`${key}: ${String(prev.status)} → ${String(next.status)} is not a move of the state machine`);
      }
    }
    for (const v of versions)
      if (!paidOrFree(v))
        problems.push(`${key}: ${String(v.status)} with a budget of ${String(v.finalBudget)} and no payment`);
  }
  for (const a of store.all('applications'))
    if (!paidOrFree(a)) problems.push(`applications:${a.id}: ${String(a.status)} unpaid on the server`);

  const perMove = new Map<string, number>();
  const unreadNotices = new Map<string, number>();
  for (const n of store.all('notifications')) {
    if (n._deleted) continue;
    if (ONCE_PER_APPLICATION.includes(String(n.type))) {
      const k = `${String(n.applicationId)} ${String(n.type)}`;
      perMove.set(k, (perMove.get(k) ?? 0) + 1);
    }
    if (n.type === 'new_message' && n.read !== true) {
      const k = `${String(n.userId)} ${String(n.conversationId)}`;
      unreadNotices.set(k, (unreadNotices.get(k) ?? 0) + 1);
    }
  }
  for (const [k, count] of perMove) if (count > 1) problems.push(`notification ${k} written ${count} times`);
  for (const [k, count] of unreadNotices)
    if (count > 1) problems.push(`${count} unread new_message notifications for ${k}`);
  for (const [key, versions] of history) {
    if (!key.startsWith('applications:')) continue;
    const id = key.slice('applications:'.length);
    const reached = new Set(versions.map((v) => String(v.status)));
    if (reached.has('PENDING_ACCEPTANCE') && !perMove.has(`${id} FINAL_BUDGET_OFFER`))
      problems.push(`${key}: an offer without its notification`);
    if (reached.has('REJECTED') && !perMove.has(`${id} OFFER_REJECTED`))
      problems.push(`${key}: a decline without its notification`);
    if (reached.has('CLOSED') && !perMove.has(`${id} application_status`))
      problems.push(`${key}: a closing without its notification`);
    if (reached.has('COMPLETED') && !perMove.has(`${id} GIG_COMPLETED`))
      problems.push(`${key}: a completion without its notification`);
  }

  for (const d of devices) {
    const snap = await d.snapshot();
    const problemsOf = snap.syncproblems;
    for (const w of writes.filter((x) => x.device === d)) {
      if (landed(w, history.get(`${w.collection}:${w.docId}`) ?? [], writes)) continue;
      const kept = problemsOf.some((p) => {
        if (p.collectionName !== w.collection || p.docId !== w.docId) return false;
        const content = JSON.parse(p.content) as Record<string, unknown>;
        return Object.entries(w.fields).every(([k, v]) => same(content[k], v));
      });
      if (!kept) {
        problems.push(
          `${d.label}: ${w.offline ? 'offline ' : ''}${w.kind} of ${w.collection}/${w.docId} ${JSON.stringify(w.fields)} neither landed nor kept as refused` +
            ` (server: ${JSON.stringify((history.get(`${w.collection}:${w.docId}`) ?? []).map((v) => v.status ?? (v._deleted ? 'deleted' : 'live')))})`,
        );
      }
    }
    // Only this device changes its user's profile and the content of its gigs (one device each;
    // the server changes none of their free-text fields): none of its edits lost to a change
    // "made elsewhere". (Its own earlier edit, landed while the answer was lost, is not one.)
    for (const p of problemsOf)
      if ((p.collectionName === 'users' || p.collectionName === 'gigs') && p.reason === CHANGED_ELSEWHERE_FIRST)
        problems.push(`${d.label}: an edit of ${p.collectionName}/${p.docId} kept as changed elsewhere: ${p.content}`);
    // The last edit of each profile field this device made is the server's value now (unless refused).
    const lastEdit = new Map<string, WriteRecord>();
    for (const w of writes) if (w.device === d && w.kind === 'profile') lastEdit.set(Object.keys(w.fields)[0]!, w);
    // Whether this device kept a refused or lost version of a document holding `value` in `field`.
    const keptWith = (collection: string, docId: string, field: string, value: unknown) =>
      problemsOf.some(
        (p) =>
          p.collectionName === collection &&
          p.docId === docId &&
          same((JSON.parse(p.content) as Record<string, unknown>)[field], value),
      );
    const stored: StoredDoc | undefined = store.get('users', d.userId);
    for (const [field, w] of lastEdit) {
      if (!keptWith('users', d.userId, field, w.fields[field]) && !same(stored?.[field], w.fields[field])) {
        problems.push(
          `${d.label}: profile ${field} is ${JSON.stringify(stored?.[field])} on the server, the last edit set ${JSON.stringify(w.fields[field])}`,
        );
      }
    }
    // The last title this device gave each gig is the server's now (unless refused or deleted).
    const lastTitle = new Map<string, WriteRecord>();
    for (const w of writes) if (w.device === d && w.kind === 'editGig') lastTitle.set(w.docId, w);
    for (const [gigId, w] of lastTitle) {
      const gig: StoredDoc | undefined = store.get('gigs', gigId);
      if (!gig || gig._deleted || same(gig.title, w.fields.title)) continue;
      if (!keptWith('gigs', gigId, 'title', w.fields.title))
        problems.push(
          `${d.label}: gig ${gigId} is titled ${JSON.stringify(gig.title)} on the server, the last edit set ${JSON.stringify(w.fields.title)}`,
        );
    }
    if (snap.unauthorized) problems.push(`${d.label}: the session was reported gone`);
    for (const [room, c] of d.openChats()) {
      const ids = c.messages.toArray().map((m) => m.id);
      if (new Set(ids).size !== ids.length) problems.push(`${d.label}: chat ${room} holds a message twice`);
      const closed = c.closedWith();
      if (closed) problems.push(`${d.label}: chat ${room} closed by the server: ${closed.code} ${closed.reason}`);
    }
  }

  const rooms = new Map<string, ReturnType<typeof storedRoom>>();
  const problemsOf = new Map<Device, DeviceSnapshot['syncproblems']>();
  const refusedRooms = new Map<string, number>();
  for (const c of chats) {
    let room = rooms.get(c.room);
    if (!room) {
      room = storedRoom(await chatLogOf(store, c.room));
      rooms.set(c.room, room);
    }
    const copies = room.messages.filter((m) => m.id === c.message.id);
    let kept = problemsOf.get(c.device);
    if (!kept) {
      kept = (await c.device.snapshot()).syncproblems;
      problemsOf.set(c.device, kept);
    }
    if (linkRefused(store, c.device.userId, kept, c.room)) {
      if (copies.length !== 0)
        problems.push(
          `${c.device.label}: chat message ${c.message.id} reached room ${c.room}, which no application links on the server`,
        );
      let status = refusedRooms.get(c.room);
      if (status === undefined) {
        const r = await tryChatSocket(server.url, c.room, {
          cookie: c.device.http.cookieHeader(),
          origin: c.device.http.originHeader ?? server.url,
        });
        if ('socket' in r) r.socket.close();
        status = r.status;
        refusedRooms.set(c.room, status);
      }
      if (status !== 403)
        problems.push(
          `${c.device.label}: room ${c.room} is linked by no application on the server, yet its upgrade answers ${status}`,
        );
      continue;
    }
    if (copies.length !== 1)
      problems.push(
        `${c.device.label}: ${c.offline ? 'offline ' : ''}chat message ${c.message.id} is on the server ${copies.length} time(s)`,
      );
    else if (!same(copies[0], c.message))
      problems.push(`chat message ${c.message.id} changed on the way: ${JSON.stringify(copies[0])}`);
    if (!room.stamps.has(c.message.id)) problems.push(`chat message ${c.message.id} has no server stamp`);
  }
  return problems;
}
