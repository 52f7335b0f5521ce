import fs from 'node:fs/promises';
import path from 'node:path';
import * as Y from 'yjs';
import { transition, type ApplicationEvent } from '../../shared/application-machine';
import { CHAT_MESSAGES_ARRAY, CHAT_STAMPS_MAP, newMessageNotice, type ChatDocMessage } from '../../shared/chat-doc';
import { COUNTRIES, NICHES, type CountryCode, type NicheId } from '../../shared/constants';
import { conversationIdFor, newId } from '../../shared/ids';
import { hashPassword, OWASP_SCRYPT } from '../../sync-server/auth/password';
import { createSession } from '../../sync-server/auth/sessions';
import type { AppContext } from '../../sync-server/context';
import { INDEXES } from '../../sync-server/indexes';
import { applicationPolicy } from '../../sync-server/policies/applications';
import { gigPolicy } from '../../sync-server/policies/gigs';
import { applicationsOf, hiringWrites } from '../../sync-server/policies/hiring';
import { notificationWrites } from '../../sync-server/domain/notifications';
import { stamp } from '../../sync-server/domain/documents';
import { openJournalStore, type JournalStore } from '../../sync-server/store/journal-store';
import type { DocWrite, Store, Stored, StoredDoc } from '../../sync-server/store/store';
import { Rng } from '../../tests/support/rng';
import { BIOS, CHAT_LINES, CITIES, DETAILS, FIRST_NAMES, LAST_NAMES, OPENERS, WORDING } from './content';

/**
 * Deterministic marketplace data: users with complete profiles in every country and niche, gigs
 * in every niche and country, applications in proportion (with offers, payments, work under way
 * and completed work), notifications, conversations with their chat logs. Everything goes through
 * the real store API, and gigs and applications through the server's own policies and state
 * machine, so the documents are exactly what the server would have written.
 *
 * Same seed, size and `now` → the same data (ids included). `now` defaults to the start of the
 * current UTC day, so a day's runs agree and deadlines stay in the future.
 */

export type DemoAccount = { name: string; email: string; password: string; location: CountryCode; niche: NicheId; subcategory: string };

export type GenerateOptions = {
  /** Number of gigs; users, applications and conversations follow in proportion. */
  gigs: number;
  seed?: number;
  now?: number;
  /** Signed-in sessions to create (the first N users), for benchmarks that need many signed-in clients. */
  sessions?: number;
  /** Pairs of users linked by an application, each with a session, for chat benchmarks. */
  chatPairs?: number;
  /** Accounts people can sign in to, with scrypt hashes at production cost, woven into the data. */
  demoAccounts?: DemoAccount[];
};

export type SessionUser = { id: string; name: string; token: string };
export type Generated = {
  counts: Record<'users' | 'gigs' | 'applications' | 'notifications' | 'conversations' | 'chatMessages', number>;
  sessions: SessionUser[];
  chatPairs: { room: string; a: SessionUser; b: SessionUser }[];
};

const DAY_MS = 86_400_000;
/** Applications per gig, by weight: about 1.4 a gig on average, some gigs with none. */
const APPLICANTS_PER_GIG: [number, number][] = [[0, 30], [1, 30], [2, 20], [3, 12], [5, 8]];
/** Where a gig's chosen applicant's work stands (the other applicants stay PENDING). */
const SELECTED_STATE: [Stage, number][] = [['none', 55], ['offered', 12], ['declined', 8], ['awaiting-payment', 7], ['in-progress', 10], ['completed', 8]];
type Stage = 'none' | 'offered' | 'declined' | 'awaiting-payment' | 'in-progress' | 'completed';

/** A gig is dated up to this long after its place on the timeline (the newest one included). */
export const GIG_JITTER_MS = 60_000;

/**
 * The longest a gig's follow-up runs after it: its last application (five, a day apart at most),
 * or its chosen applicant's offer, acceptance, payment and completion (~4.2 days), or a chat of
 * ten messages up to six hours apart from the day after (3.5 days).
 */
const FOLLOW_UP_MS = 5 * DAY_MS;

/** `ms` scaled down (never below a millisecond: each step still comes after the one before). */
function later(ms: number, scale: number): number {
  return Math.max(1, Math.round(ms * scale));
}

export function startOfUtcDay(t = Date.now()): number {
  return t - (t % DAY_MS);
}

export function parseSize(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(k?)$/i.exec(text.trim());
  if (!m) throw new Error(`Not a size: ${text} (use e.g. 1k, 10k, 50k or 2500)`);
  return Math.round(Number(m[1]) * (m[2] ? 1000 : 1));
}

export class DataGenerator {
  private readonly rng: Rng;
  private readonly now: number;
  private readonly ctx: AppContext;
  private commits: Promise<unknown>[] = [];
  private readonly users: Stored<'users'>[] = [];
  /** A credential nobody can sign in with, shared by generated users (see `user`). */
  private lockedHash = '';
  readonly counts: Generated['counts'] = { users: 0, gigs: 0, applications: 0, notifications: 0, conversations: 0, chatMessages: 0 };

  constructor(private readonly store: Store, options: { seed?: number; now?: number }) {
    this.rng = new Rng(options.seed ?? 20_260_101);
    this.now = options.now ?? startOfUtcDay();
    // The policies read only the store from their context.
    this.ctx = { store } as AppContext;
  }

  private id(): string {
    return newId((n) => this.rng.bytes(n));
  }

  /** A commit applies to memory at once (later policies read it); the lines queued meanwhile share one sync. */
  private write(writes: DocWrite[]): void {
    this.commits.push(this.store.commit(writes));
  }

  /** Waits for what is queued, so the journal drains as the data grows. */
  async done(): Promise<void> {
    const commits = this.commits;
    this.commits = [];
    await Promise.all(commits);
  }

  /** Notification drafts as stored documents, with seeded ids. */
  private notifications(drafts: Parameters<typeof notificationWrites>[0], at: number): DocWrite[] {
    return this.seeded(notificationWrites(drafts, at), at);
  }

  /** The policies draw notification ids at random: these get seeded ones, and a read flag by age. */
  private seeded(writes: DocWrite[], at: number): DocWrite[] {
    for (const w of writes) {
      w.doc.id = this.id();
      w.doc.read = at < this.now - 3 * DAY_MS ? this.rng.chance(0.8) : this.rng.chance(0.3);
    }
    this.counts.notifications += writes.length;
    return writes;
  }

  async user(spec: Partial<DemoAccount> & { createdAt: number }): Promise<Stored<'users'>> {
    const rng = this.rng;
    const id = this.id();
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    const name = spec.name ?? `${first} ${last}`;
    const serial = this.users.length + 1;
    const email = spec.email ?? `${first}.${last}.${serial}@example.com`.normalize('NFKD').replace(/[^\x20-\x7e]/g, '').toLowerCase();
    const niche = spec.niche ? NICHES.find((n) => n.id === spec.niche)! : NICHES[serial % NICHES.length]!;
    const subcategory = spec.subcategory ?? rng.pick(niche.subcategories);
    const location = spec.location ?? COUNTRIES[Math.floor(serial / NICHES.length) % COUNTRIES.length]!.code;
    const username = `${name.split(' ')[0]!.normalize('NFKD').replace(/[^A-Za-z]/g, '').toLowerCase()}${serial}`;
    const user: StoredDoc = {
      id,
      _seq: 0,
      name,
      email,
      termsAccepted: true,
      termsAcceptedAt: spec.createdAt,
      createdAt: spec.createdAt,
      updatedAt: spec.createdAt,
      payoutStatus: 'none',
      username,
      location,
      creativeNiche: niche.id,
      subcategory,
      portfolioLink: `https://portfolio.example.com/${username}`,
      bio: rng.pick(BIOS),
      _deleted: false,
    };
    // Demo accounts get a real hash at production cost. Hashing one per generated user would take
    // minutes at 50k gigs, so they share a hash of a random secret nobody knows: their emails are
    // taken, as for real accounts, but nobody can sign in to them.
    const passwordHash = spec.password
      ? await hashPassword(spec.password, OWASP_SCRYPT)
      : (this.lockedHash ||= await hashPassword(Buffer.from(this.rng.bytes(24)).toString('base64'), OWASP_SCRYPT));
    const { _seq, ...doc } = user;
    this.write([
      { collection: 'users', doc },
      { collection: 'credentials', doc: { id, email, passwordHash, _deleted: false } },
      { collection: 'portfolios', doc: { id, portfolioLink: user.portfolioLink, _deleted: false } },
    ]);
    this.users.push(this.store.get('users', id)!);
    this.counts.users++;
    return this.store.get('users', id)!;
  }

  /** A gig as the create-gig policy stores it, in the given niche and (for in-person work) country. */
  gig(creator: Stored<'users'>, at: number, nicheIndex: number, country: CountryCode): Stored<'gigs'> {
    const rng = this.rng;
    const niche = NICHES[nicheIndex % NICHES.length]!;
    const subs = Object.keys(WORDING[niche.id]);
    const sub = rng.pick(subs);
    const wording = WORDING[niche.id][sub]!;
    const work = rng.pick(wording.works);
    const locationType = rng.weighted([['remote', 50], ['in-person', 35], ['hybrid', 15]] as const);
    const passion = rng.chance(0.08);
    const low = rng.pick([50, 100, 150, 200, 250, 300, 400, 500, 750, 1000, 1500, 2000, 3000, 5000]);
    const budget = passion ? '' : rng.chance(0.6) ? `${low}-${low * rng.pick([2, 3, 4])}` : String(low);
    // Deadlines and dates fall 1 to 120 days after the generation day, so every gig is open.
    const day = new Date(this.now + rng.int(1, 120) * DAY_MS).toISOString().slice(0, 10);
    const description = [`${rng.pick(OPENERS)} ${work}.`, ...rng.sample(DETAILS, rng.int(1, 3))].join(' ');
    const incoming: Record<string, unknown> = {
      id: this.id(),
      title: work.charAt(0).toUpperCase() + work.slice(1),
      description,
      category: niche.name,
      locationType,
      budget,
      isPassionDriven: passion,
      skills: rng.sample(wording.skills, rng.int(2, 4)).join(', '),
    };
    if (locationType === 'remote') incoming.projectDeadline = day;
    else {
      incoming.country = country;
      incoming.city = rng.pick(CITIES[country]);
      incoming.projectDate = day;
    }
    const result = gigPolicy({ read: this.store, actor: creator, current: undefined, incoming, deleting: false, now: at });
    if (!result.ok) throw new Error(`generated gig refused: ${result.reason}`);
    this.write(result.writes);
    this.counts.gigs++;
    return this.store.get('gigs', String(incoming.id))!;
  }

  /** An application through the server's policy: the application and the creator's new_application notification. */
  apply(gig: Stored<'gigs'>, applicant: Stored<'users'>, at: number): Stored<'applications'> {
    const budget = Math.max(0, Math.round(this.budgetOf(gig) * (0.8 + this.rng.next() * 0.4))) * 100;
    const incoming = { id: `${gig.id}.${applicant.id}`, gigId: gig.id, budget };
    const result = applicationPolicy({ read: this.store, actor: applicant, current: undefined, incoming, deleting: false, now: at });
    if (!result.ok) throw new Error(`generated application refused: ${result.reason}`);
    // The policy also re-stamps both profiles for clients already synced; a fresh store has none.
    const [application, ...notes] = result.writes.filter((w) => w.collection !== 'users');
    this.write([application!, ...this.seeded(notes, at)]);
    this.counts.applications++;
    return this.store.get('applications', String(application!.doc.id))!;
  }

  /** One move of the state machine, with the notifications it emits. */
  move(application: Stored<'applications'>, event: ApplicationEvent, actor: Stored<'users'>, at: number): Stored<'applications'> {
    const gig = this.store.get('gigs', String(application.gigId));
    const result = transition({
      actor: { id: actor.id, name: String(actor.name) },
      application,
      gig: gig && { id: gig.id, createdBy: String(gig.createdBy), title: String(gig.title) },
      event,
      now: at,
    });
    if (!result.ok) throw new Error(`generated move refused: ${result.error}`);
    const { _seq, ...rest } = application;
    const updated = { ...rest, ...result.changes, updatedAt: stamp(at, application) };
    this.write([{ collection: 'applications', doc: updated }, ...this.notifications(result.notifications, at)]);
    return this.store.get('applications', application.id)!;
  }

  /**
   * A conversation between a gig's creator and an applicant: the Yjs document as the chat server
   * keeps it (each participant writes with their own Yjs client id, the server stamps each
   * message), the conversation record, and the receiver's new_message notification.
   */
  chat(application: Stored<'applications'>, messages: number, startAt: number, scale = 1): string {
    const creator = this.store.get('users', String(application.creatorId))!;
    const applicant = this.store.get('users', String(application.applicantId))!;
    const room = conversationIdFor(creator.id, applicant.id);
    if (this.store.get('conversations', room)) return room;
    const doc = new Y.Doc({ gc: true });
    const clientOf = new Map([[creator.id, this.rng.int(1, 2 ** 30)], [applicant.id, this.rng.int(1, 2 ** 30)]]);
    const serverClient = this.rng.int(1, 2 ** 30);
    const list = doc.getArray<ChatDocMessage>(CHAT_MESSAGES_ARRAY);
    const stamps = doc.getMap<number>(CHAT_STAMPS_MAP);
    let t = startAt;
    let last: (ChatDocMessage & { timestamp: number }) | undefined;
    for (let i = 0; i < messages; i++) {
      const [from, to] = i % 2 === 0 ? [creator, applicant] : [applicant, creator];
      t += later(this.rng.int(30_000, 6 * 3_600_000), scale);
      const m: ChatDocMessage = { id: `m-${this.id()}`, content: CHAT_LINES[i % CHAT_LINES.length]!, senderId: from.id, receiverId: to.id, clientTime: t };
      doc.clientID = clientOf.get(from.id)!;
      list.push([m]);
      doc.clientID = serverClient;
      stamps.set(m.id, t + 40);
      last = { ...m, timestamp: t + 40 };
    }
    this.commits.push(this.store.appendChatUpdate(room, Y.encodeStateAsUpdate(doc)));
    doc.destroy();
    this.counts.conversations++;
    this.counts.chatMessages += messages;
    const at = last!.timestamp;
    const read = at < this.now - DAY_MS ? this.rng.chance(0.85) : this.rng.chance(0.3);
    const sender = this.store.get('users', last!.senderId)!;
    const writes: DocWrite[] = [
      {
        collection: 'conversations',
        doc: {
          id: room,
          participants: [creator.id, applicant.id].sort(),
          createdAt: startAt,
          lastMessage: last!.content,
          lastMessageTimestamp: at,
          lastSenderId: last!.senderId,
          lastMessageRead: read,
          gigTitle: String(application.gigTitle),
          gigId: String(application.gigId),
          creatorId: creator.id,
          isCreatorInitiated: true,
          updatedAt: at,
          _deleted: false,
        },
      },
    ];
    const note = this.notifications(
      [
        {
          userId: last!.receiverId,
          type: 'new_message',
          message: newMessageNotice(String(sender.name), last!.content),
          senderId: sender.id,
          senderName: String(sender.name),
          conversationId: room,
          gigId: String(application.gigId),
          gigTitle: String(application.gigTitle),
        },
      ],
      at,
    );
    for (const n of note) n.doc.read = read;
    writes.push(...note);
    this.write(writes);
    return room;
  }

  /** What the server writes with an acceptance that fills a gig: its filledAt, the waiting applicants closed and told. */
  private settleHiring(gigId: string, at: number): void {
    const gig = this.store.get('gigs', gigId)!;
    const settled = hiringWrites(gig, applicationsOf(this.store, gigId), at);
    if (settled.gig === gig) return;
    const { _seq, ...doc } = settled.gig;
    const notes = settled.writes.filter((w) => w.collection === 'notifications');
    this.write([{ collection: 'gigs', doc: { ...doc, updatedAt: stamp(at, gig) } }, ...settled.writes.filter((w) => w.collection !== 'notifications'), ...this.seeded(notes, at)]);
  }

  /** Takes a gig's chosen applicant through the state machine to `stage`, its steps `scale` times as far apart. */
  advance(application: Stored<'applications'>, stage: Stage, at: number, scale = 1): Stored<'applications'> {
    const hour = later(3_600_000, scale);
    if (stage === 'none') return application;
    const creator = this.store.get('users', String(application.creatorId))!;
    const applicant = this.store.get('users', String(application.applicantId))!;
    const offer = stage === 'completed' && this.rng.chance(0.1) ? 0 : Number(application.budget);
    let a = this.move(application, { type: 'SEND_OFFER', finalBudget: offer }, creator, (at += hour));
    if (stage === 'offered') return a;
    if (stage === 'declined') return this.move(a, { type: 'DECLINE' }, applicant, at + hour);
    a = this.move(a, { type: 'ACCEPT' }, applicant, (at += hour));
    this.settleHiring(String(a.gigId), at);
    // A paid offer waits for the buyer's payment; an offer of nothing starts at once.
    if (a.status === 'PENDING_PAYMENT') {
      if (stage === 'awaiting-payment') return a;
      a = this.move(a, { type: 'CONFIRM_PAYMENT' }, creator, (at += hour));
    }
    if (stage === 'in-progress') return a;
    return this.move(a, { type: 'COMPLETE' }, creator, at + later(2 * DAY_MS, scale));
  }

  private budgetOf(gig: Stored<'gigs'>): number {
    const first = /\d[\d,]*/.exec(String(gig.budget))?.[0]?.replace(/,/g, '');
    return first ? Number(first) : 0;
  }

  /** The whole marketplace: `gigs` gigs over the 90 days before `now`. */
  async marketplace(gigs: number, demo: DemoAccount[] = []): Promise<StoredDoc[]> {
    const rng = this.rng;
    const userCount = Math.max(60, Math.round(gigs / 4));
    const joinedFrom = this.now - 180 * DAY_MS;
    const demoUsers: Stored<'users'>[] = [];
    for (const account of demo) demoUsers.push(await this.user({ ...account, createdAt: joinedFrom }));
    for (let i = this.users.length; i < userCount; i++) await this.user({ createdAt: joinedFrom + Math.floor((i / userCount) * 90 * DAY_MS) });
    const users = this.users;
    // A few prolific buyers post much of the work, as on real marketplaces.
    const buyers = users.slice(0, Math.max(10, Math.round(users.length * 0.3)));
    const span = 90 * DAY_MS;
    for (let i = 0; i < gigs; i++) {
      const at = this.now - span + Math.floor((i / gigs) * span) + rng.int(0, GIG_JITTER_MS);
      const creator = i < demoUsers.length * 3 ? demoUsers[i % demoUsers.length]! : rng.chance(0.7) ? rng.pick(buyers) : rng.pick(users);
      const gig = this.gig(creator, at, i, COUNTRIES[Math.floor(i / NICHES.length) % COUNTRIES.length]!.code);
      const count = rng.weighted(APPLICANTS_PER_GIG);
      const candidates = rng.sample(users, count + 1).filter((u) => u.id !== creator.id).slice(0, count);
      // What follows a gig takes up to ~5 days (FOLLOW_UP_MS); for the last days' gigs it happens
      // proportionally sooner, so nothing is dated after `now` (a demo showing events to come).
      const scale = Math.min(1, Math.max(0, this.now - at) / FOLLOW_UP_MS);
      const applications = candidates.map((u, k) =>
        this.apply(gig, u, at + later((k + 1) * rng.int(600_000, DAY_MS), scale)),
      );
      const chosen = applications[0];
      if (!chosen) continue;
      const stage = rng.weighted(SELECTED_STATE);
      const moved = this.advance(chosen, stage, at + later(2 * DAY_MS, scale), scale);
      if (stage !== 'none' && stage !== 'declined' ? rng.chance(0.8) : rng.chance(0.05)) {
        this.chat(moved, rng.int(2, 10), at + later(DAY_MS, scale), scale);
      }
      if (i % 500 === 499) await this.done();
    }
    await this.done();
    return demoUsers;
  }

  /** Sessions for the first `count` users (benchmarks sign in many clients without scrypt). */
  async sessions(count: number): Promise<SessionUser[]> {
    const out: SessionUser[] = [];
    for (const user of this.users.slice(0, count)) {
      const { token } = await createSession(this.store, user.id, Date.now());
      out.push({ id: user.id, name: String(user.name), token });
    }
    return out;
  }

  /** `count` distinct rooms whose two users an application links, each side signed in. */
  async chatPairs(count: number): Promise<Generated['chatPairs']> {
    const rooms = new Map<string, [string, string]>();
    for (const app of this.store.all('applications')) {
      if (rooms.size >= count) break;
      const room = conversationIdFor(String(app.creatorId), String(app.applicantId));
      if (!rooms.has(room)) rooms.set(room, [String(app.creatorId), String(app.applicantId)]);
    }
    if (rooms.size < count) throw new Error(`only ${rooms.size} linked pairs for ${count} chat rooms: generate more gigs`);
    const tokens = new Map<string, SessionUser>();
    const session = async (id: string) => {
      let s = tokens.get(id);
      if (!s) {
        const { token } = await createSession(this.store, id, Date.now());
        tokens.set(id, (s = { id, name: String(this.store.get('users', id)!.name), token }));
      }
      return s;
    };
    const out: Generated['chatPairs'] = [];
    for (const [room, [a, b]] of rooms) out.push({ room, a: await session(a), b: await session(b) });
    return out;
  }
}

/** Fills an open store. */
export async function generateInto(store: Store, options: GenerateOptions): Promise<Generated> {
  const generator = new DataGenerator(store, options);
  await generator.marketplace(options.gigs, options.demoAccounts);
  const sessions = options.sessions ? await generator.sessions(options.sessions) : [];
  const chatPairs = options.chatPairs ? await generator.chatPairs(options.chatPairs) : [];
  await generator.done();
  return { counts: generator.counts, sessions, chatPairs };
}

/** A data folder's store, opened outside a server: no snapshots while it is open (closing takes one). */
export function openDataDirStore(dataDir: string): Promise<JournalStore> {
  return openJournalStore({ dataDir, indexes: INDEXES, snapshotIntervalMs: 2 ** 31 - 1, snapshotEveryCommits: 1e9 });
}

/** Fills a data folder (created if missing) and closes it, so a server can open it next. */
export async function generateDataDir(dataDir: string, options: GenerateOptions): Promise<Generated> {
  const store = await openDataDirStore(dataDir);
  try {
    return await generateInto(store, options);
  } finally {
    await store.close();
  }
}

// `node --import tsx bench/data/generate.ts <size> <dataDir> [seed]`: fills a data folder.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const [size, dir, seed] = process.argv.slice(2);
  if (!size || !dir) {
    console.error('usage: node --import tsx bench/data/generate.ts <gigs, e.g. 10k> <dataDir> [seed]');
    process.exit(2);
  }
  const entries = await fs.readdir(dir).catch(() => []);
  if (entries.length > 0) {
    console.error(`${dir} is not empty: the generator only fills a fresh data folder.`);
    process.exit(1);
  }
  const started = performance.now();
  const result = await generateDataDir(dir, { gigs: parseSize(size), seed: seed ? Number(seed) : undefined });
  console.log(`Generated in ${((performance.now() - started) / 1000).toFixed(1)} s:`, result.counts);
}
