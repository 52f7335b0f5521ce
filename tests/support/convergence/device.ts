import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import * as Y from 'yjs';
import { CHAT_MESSAGES_ARRAY, type ChatDocMessage } from '../../../shared/chat-doc';
import type { TestClient } from '../http-client';
import { openChat, type ChatClient } from '../yjs-client';
import type { DeviceCommand, DeviceSnapshot } from './protocol';

const WORKER_FILE = fileURLToPath(new URL('./device-worker.ts', import.meta.url));

/**
 * A worker thread running device-worker.ts (TypeScript through tsx's loader, registered inside
 * the worker because Node 20 does not pass `--import` hooks to a worker's entry module).
 */
export class DeviceWorker {
  private worker: Worker;
  private next = 0;
  private waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private failure: Error | undefined;

  constructor() {
    // An eval'd worker resolves bare specifiers from the working directory: the project's root.
    const code = `const { register } = await import('tsx/esm/api'); register(); await import(${JSON.stringify(pathToFileURL(WORKER_FILE).href)});`;
    this.worker = new Worker(code, { eval: true });
    this.worker.on('message', (m: { id: number; result?: unknown; error?: string }) => {
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (m.error !== undefined) w?.reject(new Error(m.error));
      else w?.resolve(m.result);
    });
    const fail = (err: Error) => {
      this.failure ??= err;
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`device worker exited (${code})`)));
  }

  call<T = unknown>(cmd: DeviceCommand): Promise<T> {
    const id = ++this.next;
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ id, cmd });
    });
  }

  async terminate(): Promise<void> {
    await this.worker.terminate();
  }
}

/**
 * One user's device: the app's data layer (RxDB from the shared schemas + the replication
 * controller) in its worker, against the real server over HTTP, and one Yjs chat client per
 * conversation it has opened, in this thread (tests/support/yjs-client.ts).
 *
 * Persistence model: see device-worker.ts for RxDB and the outbox. Each chat room's Yjs state is
 * kept here across a restart, as y-indexeddb keeps it: the room is reopened from it, and a message
 * written offline with the room closed is written into it.
 */
export class Device {
  online = true;
  private chatState = new Map<string, Uint8Array>();
  private chats = new Map<string, ChatClient>();

  constructor(
    readonly label: string,
    readonly http: TestClient,
    readonly userId: string,
    readonly worker: DeviceWorker,
  ) {}

  /** First start on this worker: a fresh device (empty storage) signed in as this user. */
  async open(): Promise<void> {
    await this.worker.call({
      type: 'open',
      identity: {
        userId: this.userId,
        baseUrl: this.http.baseUrl,
        cookie: this.http.cookieHeader(),
        ...(this.http.spreadOver ? { spread: this.http.spreadOver, origin: this.http.originHeader ?? undefined } : {}),
      },
    });
  }

  snapshot(): Promise<DeviceSnapshot> {
    return this.worker.call<DeviceSnapshot>({ type: 'snapshot' });
  }

  write<T = unknown>(cmd: DeviceCommand): Promise<T> {
    return this.worker.call<T>(cmd);
  }

  /** The app closes (tab closed, device rebooted) and opens again from its persisted state. */
  async restart(): Promise<void> {
    for (const [room, c] of this.chats) {
      this.chatState.set(room, Y.encodeStateAsUpdate(c.doc));
      c.destroy();
    }
    this.chats.clear();
    await this.worker.call({ type: 'stop' });
    await this.worker.call({ type: 'start' });
    if (this.online) for (const room of this.chatState.keys()) this.chat(room);
  }

  async goOffline(): Promise<void> {
    this.online = false;
    await this.worker.call({ type: 'online', online: false });
    for (const c of this.chats.values()) c.provider.disconnect();
  }

  async goOnline(): Promise<void> {
    this.online = true;
    await this.worker.call({ type: 'online', online: true });
    for (const c of this.chats.values()) c.provider.connect();
    for (const room of this.chatState.keys()) this.chat(room);
  }

  /** The open chat client of a room, opened (with its persisted state) when needed. Online only. */
  chat(room: string): ChatClient {
    let c = this.chats.get(room);
    if (!c) {
      // Behind one address, each room's socket reaches one of the instances.
      c = openChat(this.http.onOneInstance(), room);
      if (process.env.CONVERGENCE_TRACE) {
        const tag = `[chat ${this.label} ${room.slice(0, 13)}]`;
        c.provider.on('connection-error', (e: Event) =>
          console.log(tag, 'error', (e as unknown as { message?: string }).message ?? String(e)),
        );
        c.provider.on('connection-close', (e: CloseEvent | null) => console.log(tag, 'close', e?.code, e?.reason));
        c.provider.on('status', (e: { status: string }) => console.log(tag, e.status));
      }
      // y-indexeddb loads the stored room while the socket is still connecting.
      const persisted = this.chatState.get(room);
      if (persisted) Y.applyUpdate(c.doc, persisted);
      this.chats.set(room, c);
    }
    return c;
  }

  openChats(): [string, ChatClient][] {
    return [...this.chats];
  }

  rooms(): string[] {
    return [...new Set([...this.chats.keys(), ...this.chatState.keys()])];
  }

  /**
   * Writes a chat message. Online or with the room open it goes into the live document (pending
   * until the socket is back); offline with the room closed it is written to the persisted room,
   * as y-indexeddb stores what the chat page writes, and goes out when the room is next opened.
   */
  sendChat(room: string, message: ChatDocMessage): void {
    const open = this.chats.get(room);
    if (open) return open.send(message);
    if (this.online) return this.chat(room).send(message);
    const doc = new Y.Doc();
    const persisted = this.chatState.get(room);
    if (persisted) Y.applyUpdate(doc, persisted);
    doc.getArray<ChatDocMessage>(CHAT_MESSAGES_ARRAY).push([message]);
    this.chatState.set(room, Y.encodeStateAsUpdate(doc));
    doc.destroy();
  }

  /** Closes everything and drops the persisted state (end of a seed); the worker stays for the next. */
  async dispose(): Promise<void> {
    for (const c of this.chats.values()) c.destroy();
    this.chats.clear();
    this.chatState.clear();
    await this.worker.call({ type: 'dispose' });
  }
}
