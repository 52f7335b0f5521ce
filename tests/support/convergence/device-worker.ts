import { parentPort } from 'node:worker_threads';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { REPLICATED_NAMES } from '../../../client/data/collections';
import type { DataContextValue } from '../../../client/data/data-provider';
import { createAppDatabase, type AppDatabase } from '../../../client/data/database';
import { LocalData } from '../../../client/data/local-data';
import { Outbox } from '../../../client/data/outbox';
import { SyncController } from '../../../client/data/replication';
import { WorkOffline } from '../../../client/data/work-offline';
import {
  acceptOffer,
  applyToGig,
  declineOffer,
  sendOffers,
  withdrawApplication,
} from '../../../client/features/applications/application-writes';
import { createGig, deleteGig, editGig } from '../../../client/features/gigs/gig-writes';
import { formFromGig } from '../../../shared/gig-content';
import { saveProfileFields } from '../../../client/features/profile/profile-writes';
import type { Application } from '../../../shared/schemas/application';
import type { User } from '../../../shared/schemas/user';
import type { Refusal } from '../../../shared/sync/protocol';
import type { GigFormValues } from '../../../shared/validation/gig';
import { pushedStatesIn } from '../node-client';
import type { DeviceCommand, DeviceIdentity, DeviceSnapshot } from './protocol';

/**
 * One device's app data layer in a worker thread of its own: the open-source RxDB allows 13 open
 * collections per JavaScript realm (error COL23) and the app has six, so each simulated device
 * gets its own realm, as each browser does.
 *
 * Persistence: RxDB's memory storage keeps a collection's state in a realm-wide map after its
 * database is closed, so re-creating the database under the same name after `stop` finds every
 * document, the replication checkpoints and the local writes not pushed yet, like a page reload
 * over IndexedDB. The outbox keys and the pushed states of the changes waiting in it live here
 * across a restart as localStorage keeps them; the refused set and the rest of the app's memory
 * start empty, as after a reload.
 *
 * The browser's network signals: the data layer and RxDB's retry read `navigator.onLine` and
 * listen for the window's `online`/`offline` events (a push waiting to retry goes out as soon as
 * the network is back, not after its back-off). The worker has no window, so it gets a minimal one
 * that the device's network drives, as the browser drives the real one.
 */
const browserNavigator = { onLine: true };
const browserWindow = new EventTarget();
Object.defineProperty(globalThis, 'navigator', { value: browserNavigator, configurable: true, writable: true });
Object.defineProperty(globalThis, 'window', { value: browserWindow, configurable: true, writable: true });
function setBrowserOnline(online: boolean): void {
  if (browserNavigator.onLine === online) return;
  browserNavigator.onLine = online;
  browserWindow.dispatchEvent(new Event(online ? 'online' : 'offline'));
}

/**
 * The device's network: every request of the data layer goes through `fetch` here. Offline, a
 * request fails as a browser's does without network (TypeError), and going offline cuts every
 * request under way, the open change stream included: a push the server already applied may lose
 * its answer, as on a dropped connection.
 *
 * A cut request whose answer is being read fails through the model's own copy of the body, never
 * by aborting Node's fetch: Node 20's fetch (undici 6) leaves a body unsettled forever when the
 * abort lands after the whole answer arrived but before it was read (nodejs/undici#4089), which
 * no browser does. A pull caught there hung, and its collection never pulled again.
 */
class Network {
  online = true;
  /** The requests under way, each with how to lose it: abort it before its answer, fail its body after. */
  private open = new Set<{ lose(reason: Error): void }>();

  readonly fetch: typeof fetch = async (input, init) => {
    if (!this.online) throw new TypeError('fetch failed: the device is offline');
    const controller = new AbortController();
    const request = { lose: (reason: Error) => controller.abort(reason) };
    const outer = init?.signal;
    if (outer) {
      if (outer.aborted) controller.abort(outer.reason);
      else outer.addEventListener('abort', () => request.lose(outer.reason as Error), { once: true });
    }
    this.open.add(request);
    try {
      // Behind one address, each request may land on any instance (decision 023).
      const spread = identity?.spread;
      const url =
        spread && typeof input === 'string' && input.startsWith(identity!.baseUrl)
          ? spread[Math.floor(Math.random() * spread.length)]! + input.slice(identity!.baseUrl.length)
          : input;
      const answer = await fetch(url, { ...init, signal: controller.signal });
      const res = this.readThrough(answer, request);
      traceAnswer(input, init, res);
      return res;
    } catch (err) {
      this.open.delete(request);
      throw err;
    }
  };

  /**
   * The answer with its body read through a stream the model owns: once read, the request is no
   * longer under way; lost before that, the body fails with the reason.
   */
  private readThrough(answer: Response, request: { lose(reason: Error): void }): Response {
    if (!answer.body) {
      this.open.delete(request);
      return answer;
    }
    const reader = answer.body.getReader();
    let failed = false;
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        request.lose = (reason) => {
          failed = true;
          this.open.delete(request);
          c.error(reason);
          reader.cancel(reason).catch(() => undefined);
        };
      },
      pull: async (c) => {
        const chunk = await reader.read();
        if (failed) return;
        if (chunk.done) {
          this.open.delete(request);
          c.close();
        } else c.enqueue(chunk.value);
      },
      cancel: (reason) => {
        this.open.delete(request);
        reader.cancel(reason).catch(() => undefined);
      },
    });
    return new Response(body, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
  }

  cut(): void {
    this.online = false;
    const open = [...this.open];
    this.open.clear();
    for (const request of open) request.lose(new TypeError('network lost'));
  }
}

/** With CONVERGENCE_TRACE: every push's rows and every pull's documents, with the server's answer. */
function traceAnswer(input: Parameters<typeof fetch>[0], init: RequestInit | undefined, res: Response): void {
  if (TRACE && String(input).includes('/push')) {
    // Every row's id and status (a long batch is not cut off), then the server's answer.
    // Each row: id, status, deletion, then its version and the version it assumes the server holds.
    type Row = { id: string; status?: string; _deleted?: boolean; gigDeleted?: boolean; updatedAt?: number };
    const brief = (d: Row) =>
      `${d.id}${d.status ? `:${d.status}` : ''}${d._deleted ? ':deleted' : ''}${d.gigDeleted ? ':gigDeleted' : ''}@${String(d.updatedAt ?? '-')}`;
    const rows = (JSON.parse(String(init?.body)) as { assumedMasterState?: Row | null; newDocumentState: Row }[])
      .map((r) => `${brief(r.newDocumentState)}(assumed @${String(r.assumedMasterState?.updatedAt ?? '-')})`)
      .join(' ');
    const what = `push ${String(input).split('/').at(-2)} [${rows}]`;
    void res
      .clone()
      .text()
      .then(
        (t) => {
          const answer = res.ok ? (JSON.parse(t) as { conflicts: Row[]; refused: Refusal[] }) : undefined;
          trace(
            `${what} -> ${answer ? `conflicts [${answer.conflicts.map(brief).join(' ')}] refused ${JSON.stringify(answer.refused)}` : `${res.status} ${t.slice(0, 200)}`}`,
          );
        },
        () => trace(`${what} -> (answer lost)`),
      );
  }
  if (TRACE && String(input).includes('/pull')) {
    const what = `pull ${String(input).split('/').at(-2)} ${String(input).split('?').at(-1)}`;
    void res
      .clone()
      .text()
      .then(
        (t) => {
          const body = res.ok
            ? (JSON.parse(t) as {
                documents: { id: string; status?: string; updatedAt?: number }[];
                checkpoint: unknown;
              })
            : undefined;
          trace(
            `${what} -> ${body ? `[${body.documents.map((d) => `${d.id}${d.status ? `:${d.status}` : ''}@${String(d.updatedAt ?? '-')}`).join(' ')}] ${JSON.stringify(body.checkpoint)}` : res.status}`,
          );
        },
        () => trace(`${what} -> (answer lost)`),
      );
  }
}

const TRACE = Boolean(process.env.CONVERGENCE_TRACE);
function trace(line: string): void {
  if (TRACE) console.log(`[${identity?.userId.slice(0, 6)} ${Date.now() % 100000}] ${line}`);
}

let identity: DeviceIdentity | undefined;
let network = new Network();
let outboxKeys: string[] = [];
/** The pushed states the app keeps in localStorage beside the outbox (client/data/pushed-states.ts). */
const kept: { pushed: unknown } = { pushed: undefined };
/** The app's data as the screens get it, plus the database this worker closes and inspects. */
let data: (DataContextValue & { db: AppDatabase }) | undefined;
let unauthorized = false;

async function start(): Promise<void> {
  const id = identity!;
  const refused = new Set<string>();
  const outbox = new Outbox({ load: () => [...outboxKeys], save: (keys) => (outboxKeys = [...keys]) });
  const pushed = pushedStatesIn(kept);
  const db = await createAppDatabase(id.userId, getRxStorageMemory(), {
    multiInstance: false,
    refused,
    pushed,
    outbox,
  });
  const sync = new SyncController(db, {
    baseUrl: id.baseUrl,
    fetch: network.fetch,
    headers: () => ({ cookie: id.cookie, origin: id.origin ?? id.baseUrl }),
    outbox,
    refused,
    onUnauthorized: () => (unauthorized = true),
    waitForLeadership: false,
  });
  // (Its offline periods are the network's: the device never turns "Work offline" on.)
  data = { db, local: new LocalData(db, outbox), sync, outbox, workOffline: new WorkOffline(null), userId: id.userId };
}

async function stop(): Promise<void> {
  const d = data;
  data = undefined;
  if (d) {
    await d.sync.destroy();
    await d.db.close();
  }
}

async function me(d: DataContextValue): Promise<User | undefined> {
  return (await d.local.get('users', d.userId)) ?? undefined;
}

async function application(d: DataContextValue, id: string): Promise<Application> {
  const found = await d.local.get('applications', id);
  if (!found) throw new Error(`application ${id} not held locally`);
  return found;
}

/**
 * An application's move, and its id; null when the app refused it because the application moved
 * on since the scenario looked (the other party's change synced in meanwhile, e.g. a withdrawal
 * before the buyer's offer): the user could not take this action, and nothing was written. Any
 * other failure stands.
 */
async function unlessMoved(
  d: DataContextValue,
  id: string,
  seen: Application['status'],
  action: () => Promise<void>,
): Promise<string | null> {
  try {
    await action();
    return id;
  } catch (err) {
    if ((await d.local.get('applications', id))?.status !== seen) return null;
    throw err;
  }
}

async function snapshot(): Promise<DeviceSnapshot> {
  const d = data!;
  const docs = {} as DeviceSnapshot['docs'];
  for (const name of REPLICATED_NAMES)
    docs[name] = (await d.db[name].find().exec()).map((x) => x.toJSON() as Record<string, unknown>);
  const problems = (await d.db.syncproblems.find().exec()).map(
    (x) => x.toJSON() as DeviceSnapshot['syncproblems'][number],
  );
  return { docs, syncproblems: problems, outbox: d.outbox.count, unauthorized };
}

async function run(cmd: DeviceCommand): Promise<unknown> {
  switch (cmd.type) {
    case 'open':
      identity = cmd.identity;
      network = new Network();
      setBrowserOnline(true);
      outboxKeys = [];
      kept.pushed = undefined;
      unauthorized = false;
      return start();
    case 'start':
      trace('restart');
      await start();
      if (TRACE)
        trace(
          `restarted holding applications [${(await data!.db.applications.find().exec()).map((a) => `${a.id}:${a.status}`).join(' ')}], outbox ${data!.outbox.count}`,
        );
      return undefined;
    case 'stop':
      return stop();
    case 'online':
      trace(cmd.online ? 'online' : 'offline');
      if (cmd.online) network.online = true;
      else network.cut();
      setBrowserOnline(cmd.online);
      return undefined;
    case 'snapshot':
      return snapshot();
    case 'dispose': {
      await stop();
      // Drops the persisted state so the next seed's device starts on an empty "disk".
      const db = await createAppDatabase(identity!.userId, getRxStorageMemory(), { multiInstance: false });
      await db.remove();
      identity = undefined;
      return undefined;
    }
    case 'createGig':
      return createGig(data!, cmd.values as GigFormValues, await me(data!));
    case 'apply': {
      const gig = await data!.local.get('gigs', cmd.gigId);
      const user = await me(data!);
      if (!user) throw new Error('own profile not held locally');
      // Deleted by its creator and synced in since the scenario looked: the user cannot apply now.
      if (!gig) return null;
      return applyToGig(data!, gig, user, cmd.rate);
    }
    case 'offer':
      return unlessMoved(data!, cmd.applicationId, 'PENDING', () =>
        sendOffers(data!, { [cmd.applicationId]: cmd.finalBudget }),
      );
    case 'accept':
      return unlessMoved(data!, cmd.applicationId, 'PENDING_ACCEPTANCE', async () =>
        acceptOffer(data!, await application(data!, cmd.applicationId)),
      );
    case 'decline':
      return unlessMoved(data!, cmd.applicationId, 'PENDING_ACCEPTANCE', () => declineOffer(data!, cmd.applicationId));
    case 'withdraw':
      // An offer synced in since the scenario looked: the app refuses the withdrawal on the device.
      return unlessMoved(data!, cmd.applicationId, 'PENDING', () => withdrawApplication(data!, cmd.applicationId));
    case 'deleteGig':
      return deleteGig(data!, cmd.gigId);
    case 'editGig': {
      // As the gig's page saves its edit form: the stored gig's values with a new title.
      const gig = await data!.local.get('gigs', cmd.gigId);
      if (!gig) return null; // deleted and synced in since the scenario looked
      await editGig(data!, cmd.gigId, { ...formFromGig(gig), title: cmd.title });
      return cmd.gigId;
    }
    case 'profile': {
      // As the profile page's autosave writes a field.
      trace(`edit ${cmd.field}=${cmd.value}`);
      await saveProfileFields(data!, { [cmd.field]: cmd.value });
      return undefined;
    }
  }
}

parentPort!.on('message', (message: { id: number; cmd: DeviceCommand }) => {
  run(message.cmd).then(
    (result) => parentPort!.postMessage({ id: message.id, result }),
    (err: unknown) =>
      parentPort!.postMessage({
        id: message.id,
        error: err instanceof Error ? `${err.message}\n${err.stack ?? ''}` : String(err),
      }),
  );
});
