import type { ApplicationStatus } from '../../../shared/constants';
import { applicationIdFor } from '../../../shared/ids';
import type { PullAnswer } from '../../../shared/sync/protocol';
import { applicationDoc, gigDoc, PASSWORD, push as pushRows, randomId, uniqueEmail } from '../fixtures';
import { TestClient } from '../http-client';
import { ackStatus, type Ledger } from './ledger';

type Doc = Record<string, unknown>;
const PULLED = ['users', 'gigs', 'applications', 'notifications'] as const;
type Pulled = (typeof PULLED)[number];

/** A push answer for one row, or undefined when the request failed (the server died mid-request). */
type RowAnswer = { refusal?: string; master?: Doc } | undefined;

/**
 * One signed-in user of the crash test over plain HTTP: what it last heard of the documents it
 * may see (pulled, and from push answers), and pushes built from that, as a client would send.
 */
export class CrashUser {
  readonly docs: Record<Pulled, Map<string, Doc>> = {
    users: new Map(),
    gigs: new Map(),
    applications: new Map(),
    notifications: new Map(),
  };
  private checkpoints: Record<Pulled, number> = { users: 0, gigs: 0, applications: 0, notifications: 0 };

  constructor(
    readonly http: TestClient,
    readonly id: string,
    readonly name: string,
  ) {}

  /** After a restart the server may have lost what was never acknowledged: start from its state. */
  forget(): void {
    for (const name of PULLED) {
      this.docs[name].clear();
      this.checkpoints[name] = 0;
    }
  }

  /** Pulls every collection up to date once; false when the server did not answer. */
  async pull(): Promise<boolean> {
    try {
      for (const name of PULLED) {
        for (;;) {
          const res = await this.http.get<PullAnswer>(
            `/api/sync/${name}/pull?seq=${this.checkpoints[name]}&limit=1000`,
          );
          if (res.status !== 200) return false;
          for (const d of res.body.documents) this.docs[name].set(d.id, d);
          this.checkpoints[name] = res.body.checkpoint.seq;
          if (res.body.documents.length < 1000) break;
        }
      }
      return true;
    } catch {
      return false;
    }
  }

  async push(ledger: Ledger, collection: Pulled, assumed: Doc | null, doc: Doc): Promise<RowAnswer> {
    ledger.counts.requests++;
    let res;
    try {
      res = await pushRows(this.http, collection, [
        { assumedMasterState: assumed, newDocumentState: { _deleted: false, ...doc } },
      ]);
    } catch {
      ledger.counts.failed++;
      return undefined;
    }
    if (res.status !== 200) {
      ledger.counts.failed++;
      if (res.status >= 500) throw new Error(`push ${collection} answered ${res.status}: ${JSON.stringify(res.body)}`);
      return undefined;
    }
    const refusal = res.body.refused.find((r) => r.id === doc.id)?.reason;
    const master = res.body.conflicts.find((c) => c.id === doc.id);
    if (master) this.docs[collection].set(master.id as string, master);
    if (refusal) ledger.counts.refused++;
    return { refusal, master };
  }
}

const pick = <T>(items: T[]): T | undefined => items[Math.floor(Math.random() * items.length)];
let counter = 0;
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${(counter++).toString(36)}`;

function acknowledged(ledger: Ledger, answer: RowAnswer, check: (master: Doc) => boolean): answer is { master: Doc } {
  const ok = Boolean(answer && !answer.refusal && answer.master && check(answer.master));
  if (ok) ledger.counts.acknowledged++;
  return ok;
}

async function createGig(u: CrashUser, ledger: Ledger): Promise<void> {
  const title = unique('Gig');
  const gig = gigDoc({ id: randomId(), title });
  const answer = await u.push(ledger, 'gigs', null, gig);
  if (acknowledged(ledger, answer, (m) => m._deleted !== true && m.createdBy === u.id && m.title === title)) {
    ledger.gigs.set(gig.id as string, {
      owner: u.id,
      updatedAt: answer.master.updatedAt as number,
      title,
      deleted: false,
    });
  }
}

/** Own gigs whose creation was acknowledged (only those are in the ledger to be checked). */
function ownLiveGigs(u: CrashUser, ledger: Ledger): Doc[] {
  return [...u.docs.gigs.values()].filter(
    (g) => g.createdBy === u.id && g._deleted !== true && ledger.gigs.has(g.id as string),
  );
}

async function editGig(u: CrashUser, ledger: Ledger): Promise<void> {
  const gig = pick(ownLiveGigs(u, ledger));
  if (!gig) return createGig(u, ledger);
  const title = unique('Edited');
  const answer = await u.push(ledger, 'gigs', gig, { ...gig, title });
  if (acknowledged(ledger, answer, (m) => m.title === title && m._deleted !== true)) {
    const entry = ledger.gigs.get(gig.id as string)!;
    const updatedAt = answer.master.updatedAt as number;
    if (updatedAt > entry.updatedAt) Object.assign(entry, { updatedAt, title });
  }
}

async function deleteGig(u: CrashUser, ledger: Ledger): Promise<void> {
  const gig = pick(ownLiveGigs(u, ledger));
  if (!gig) return;
  const answer = await u.push(ledger, 'gigs', gig, { ...gig, _deleted: true });
  // A conflict answering "already deleted" is as much a promise that the gig is gone.
  if (acknowledged(ledger, answer, (m) => m._deleted === true)) ledger.gigs.get(gig.id as string)!.deleted = true;
}

async function apply(u: CrashUser, ledger: Ledger): Promise<void> {
  const gig = pick(
    [...u.docs.gigs.values()].filter(
      (g) =>
        g.createdBy !== u.id &&
        g._deleted !== true &&
        ledger.gigs.has(g.id as string) &&
        !u.docs.applications.has(applicationIdFor(g.id as string, u.id)),
    ),
  );
  if (!gig) return;
  const doc = applicationDoc(gig.id as string, u.id, { budget: 100 * (1 + Math.floor(Math.random() * 900)) });
  const answer = await u.push(ledger, 'applications', null, doc);
  if (acknowledged(ledger, answer, (m) => m.applicantId === u.id && m.gigId === gig.id)) {
    const id = doc.id as string;
    if (!ledger.applications.has(id)) {
      ledger.applications.set(id, {
        gigId: gig.id as string,
        creatorId: gig.createdBy as string,
        applicantId: u.id,
        status: 'PENDING',
      });
    }
  }
}

async function move(u: CrashUser, ledger: Ledger, app: Doc, changes: Doc, status: ApplicationStatus): Promise<void> {
  const answer = await u.push(ledger, 'applications', app, { ...app, ...changes });
  if (acknowledged(ledger, answer, (m) => m.status === status && (m.updatedAt as number) > (app.updatedAt as number))) {
    ackStatus(ledger, app.id as string, status);
  }
}

async function sendOffer(u: CrashUser, ledger: Ledger): Promise<void> {
  const app = pick(
    [...u.docs.applications.values()].filter((a) => a.creatorId === u.id && a.status === 'PENDING' && !a.gigDeleted),
  );
  if (!app) return;
  // A third of the offers are unpaid (0): accepting those starts the work at once.
  const finalBudget = Math.random() < 0.33 ? 0 : 100 * (1 + Math.floor(Math.random() * 900));
  await move(u, ledger, app, { status: 'PENDING_ACCEPTANCE', finalBudget }, 'PENDING_ACCEPTANCE');
}

async function answerOffer(u: CrashUser, ledger: Ledger): Promise<void> {
  const app = pick(
    [...u.docs.applications.values()].filter((a) => a.applicantId === u.id && a.status === 'PENDING_ACCEPTANCE'),
  );
  if (!app) return;
  if (Math.random() < 0.3 || app.gigDeleted)
    return move(u, ledger, app, { status: 'REJECTED', finalBudget: null }, 'REJECTED');
  const status = (app.finalBudget as number) > 0 ? 'PENDING_PAYMENT' : 'IN_PROGRESS';
  await move(u, ledger, app, { status }, status);
}

async function editBio(u: CrashUser, ledger: Ledger): Promise<void> {
  const own = u.docs.users.get(u.id);
  if (!own) return;
  const bio = unique('Bio');
  const answer = await u.push(ledger, 'users', own, { ...own, bio });
  if (acknowledged(ledger, answer, (m) => m.bio === bio)) {
    const updatedAt = answer.master.updatedAt as number;
    if (updatedAt > (ledger.bios.get(u.id)?.updatedAt ?? 0)) ledger.bios.set(u.id, { updatedAt, bio });
  }
}

async function readNotification(u: CrashUser, ledger: Ledger): Promise<void> {
  const n = pick([...u.docs.notifications.values()].filter((x) => x.read !== true));
  if (!n) return;
  const answer = await u.push(ledger, 'notifications', n, { ...n, read: true });
  if (acknowledged(ledger, answer, (m) => m.read === true)) ledger.read.add(n.id as string);
}

async function signUpSomeone(baseUrl: string, ledger: Ledger): Promise<void> {
  const http = new TestClient(baseUrl);
  const email = uniqueEmail('crash');
  ledger.counts.requests++;
  try {
    const res = await http.post<{ user: { id: string } }>('/api/auth/signup', {
      name: 'Late Joiner',
      email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      termsAccepted: true,
    });
    if (res.status === 201) {
      ledger.counts.acknowledged++;
      ledger.signups.set(res.body.user.id, email);
    } else if (res.status >= 500) throw new Error(`signup answered ${res.status}`);
  } catch (err) {
    if (err instanceof Error && /answered/.test(err.message)) throw err;
    ledger.counts.failed++;
  }
}

const OPS: [number, (u: CrashUser, ledger: Ledger) => Promise<void>][] = [
  [22, createGig],
  [14, editGig],
  [4, deleteGig],
  [20, apply],
  [12, sendOffer],
  [12, answerOffer],
  [10, editBio],
  [6, readNotification],
];
const TOTAL = OPS.reduce((s, [w]) => s + w, 0);

function randomOp(): (u: CrashUser, ledger: Ledger) => Promise<void> {
  let r = Math.random() * TOTAL;
  for (const [w, op] of OPS) if ((r -= w) < 0) return op;
  return OPS[0]![1];
}

export type Stop = { stopped: boolean };

/**
 * Runs `perUser` concurrent writers for each user, plus a pull loop per user that keeps its view
 * fresh, until `stop.stopped`. Requests the dying server cannot answer count as not acknowledged.
 */
export async function runWriters(users: CrashUser[], ledger: Ledger, perUser: number, stop: Stop): Promise<void> {
  const loops: Promise<void>[] = [];
  for (const u of users) {
    loops.push(
      (async () => {
        while (!stop.stopped) {
          if (!(await u.pull())) return;
          await new Promise((r) => setTimeout(r, 20 + Math.random() * 60));
        }
      })(),
    );
    for (let i = 0; i < perUser; i++) {
      loops.push(
        (async () => {
          while (!stop.stopped) {
            if (Math.random() < 0.01) await signUpSomeone(u.http.baseUrl, ledger);
            else await randomOp()(u, ledger);
            // A little jitter, so the writers do not march in step.
            if (Math.random() < 0.3) await new Promise((r) => setTimeout(r, Math.random() * 5));
          }
        })(),
      );
    }
  }
  await Promise.all(loops);
}
