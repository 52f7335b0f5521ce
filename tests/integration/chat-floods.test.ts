import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import * as encoding from 'lib0/encoding';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as Y from 'yjs';
import { CHAT_MESSAGES_ARRAY, CHAT_STAMPS_MAP } from '../../shared/chat-doc';
import { conversationIdFor } from '../../shared/ids';
import { CHAT_LIMITS } from '../../sync-server/chat/limits';
import { CLOSE_CODES } from '../../sync-server/chat/protocol';
import { LOAD_ENV, startChildServer, type ChildServer } from '../support/spawn-server';
import { openStoreFor, releaseStore } from '../support/store-under-test';
import { freePort } from '../support/crash/killable-server';
import { applicationDoc, gigDoc, person, write, type Person } from '../support/fixtures';
import { waitFor } from '../support/wait';
import { chatMessage, openChat, tryChatSocket, updateFrame } from '../support/yjs-client';

/**
 * Issue 18 item 2 and the chat part of item 3: floods of small chat frames must not block the
 * server. The server runs in a child process (its event loop is not this file's), and while each
 * flood runs, /api/health is asked again and again: its p99 must stay within 100 ms.
 */

const HEALTH_P99_MS = 100;
const MIN_SAMPLES = 200;
const KiB = 1024;

let server: ChildServer;
let dir: string;
let env: Record<string, string>;
/** A pair in a room seeded close to the size limit, and a pair in an empty room. */
let big: { buyer: Person; seller: Person; room: string };
let fresh: { buyer: Person; seller: Person; room: string };

async function linkedPair(url: string, label: string) {
  const buyer = await person(url, { name: `${label} Buyer` });
  const gig = (await write(buyer.http, 'gigs', gigDoc({ title: `${label} gig` }))).master!;
  const seller = await person(url, { name: `${label} Seller` });
  const applied = await write(seller.http, 'applications', applicationDoc(gig.id as string, seller.user.id));
  expect(applied.refusal).toBeUndefined();
  return { buyer, seller, room: conversationIdFor(buyer.user.id, seller.user.id) };
}

/** Max-length messages of `sender`, each a Yjs update of its own as a client sends them, as socket frames. */
function messageFrames(sender: Person, receiver: Person, count: number): Uint8Array[] {
  const doc = new Y.Doc();
  const messages = doc.getArray(CHAT_MESSAGES_ARRAY);
  const frames: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const before = Y.encodeStateVector(doc);
    messages.push([chatMessage(sender.user.id, receiver.user.id, `${i} `.padEnd(4990, 'x'))]);
    frames.push(updateFrame(Y.encodeStateAsUpdate(doc, before)));
  }
  doc.destroy();
  return frames;
}

/** Writes a room of max-length, stamped messages straight into the stopped server's store, up to `bytes`. */
async function seedRoom(pair: typeof big, bytes: number): Promise<number> {
  const doc = new Y.Doc();
  const stamps = new Y.Doc();
  const messages = doc.getArray(CHAT_MESSAGES_ARRAY);
  let n = 0;
  while (Y.encodeStateAsUpdate(doc).byteLength < bytes - 64 * KiB) {
    const batch = Array.from({ length: 50 }, () =>
      chatMessage(pair.buyer.user.id, pair.seller.user.id, `${n++} `.padEnd(4990, 'y')),
    );
    messages.push(batch);
    for (const m of batch) stamps.getMap(CHAT_STAMPS_MAP).set(m.id, 1_700_000_000_000 + n);
  }
  const store = await openStoreFor(dir);
  await store.openChat(pair.room);
  await store.appendChatUpdate(pair.room, Y.encodeStateAsUpdate(doc));
  await store.appendChatUpdate(pair.room, Y.encodeStateAsUpdate(stamps));
  store.closeChat(pair.room);
  await store.close();
  return n;
}

/** A chat socket of `who` in `room`, open (the server may close it at once: see `closed`). */
async function rawSocket(
  who: Person,
  room: string,
): Promise<{ socket: WebSocket; closed: Promise<{ code: number; reason: string }>; frames: Uint8Array[] }> {
  const opened = await tryChatSocket(server.url, room, { cookie: who.http.cookieHeader(), origin: server.url });
  if (!('socket' in opened)) throw new Error(`socket refused: ${opened.status} ${JSON.stringify(opened.body)}`);
  const { socket } = opened;
  const frames: Uint8Array[] = [];
  socket.on('message', (data: Buffer) => frames.push(new Uint8Array(data)));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code: number, reason: Buffer) => resolve({ code, reason: reason.toString() })),
  );
  return { socket, closed, frames };
}

/**
 * Asks /api/health one request after another while `flood` runs (and until at least MIN_SAMPLES
 * answers came), and returns the answer times in ms, sorted.
 */
async function healthDuring(flood: () => Promise<unknown>): Promise<number[]> {
  let done = false;
  const times: number[] = [];
  const probing = (async () => {
    while (!done || times.length < MIN_SAMPLES) {
      const started = performance.now();
      const res = await fetch(`${server.url}/api/health`);
      await res.arrayBuffer();
      expect(res.status).toBe(200);
      times.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  const cpuBefore = await server.cpuMicros();
  const started = performance.now();
  try {
    await flood();
  } finally {
    done = true;
    await probing;
  }
  const cpu = ((await server.cpuMicros()) - cpuBefore) / 1000;
  console.log(
    `flood: ${Math.round(performance.now() - started)} ms, server CPU ${Math.round(cpu)} ms, ${times.length} health answers`,
  );
  return times.sort((a, b) => a - b);
}

const p99 = (sorted: number[]) => sorted[Math.ceil(sorted.length * 0.99) - 1]!;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'chat-floods-'));
  env = { ...LOAD_ENV, PORT: String(await freePort()), SCRYPT_LOG_N: '10', CHAT_ROOM_IDLE_MS: '3600000' };
  server = await startChildServer({ dataDir: dir, env, startTimeoutMs: 60_000 });
  big = await linkedPair(server.url, 'Big');
  fresh = await linkedPair(server.url, 'Fresh');
  await server.stop();
  await seedRoom(big, CHAT_LIMITS.roomMaxBytes - 128 * KiB);
  server = await startChildServer({ dataDir: dir, env, startTimeoutMs: 60_000 });
  // The big room is loaded (once, before any measuring), as a reader in it would.
  const reader = openChat(big.seller.http, big.room);
  await reader.synced(30_000);
  reader.destroy();
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await fs.rm(dir, { recursive: true, force: true });
  await releaseStore(dir);
});

describe('chat floods: the server keeps answering, every flood is bounded', () => {
  it(
    'one user sending max-length messages as fast as the socket takes them: slowed to its budget, nobody else waits',
    { timeout: 120_000 },
    async () => {
      const frames = messageFrames(fresh.buyer, fresh.seller, 2_000);
      const flooder = await rawSocket(fresh.buyer, fresh.room);
      let started = 0;
      const times = await healthDuring(async () => {
        started = performance.now();
        for (const f of frames) flooder.socket.send(f);
        await new Promise((r) => setTimeout(r, 3_000));
      });
      flooder.socket.terminate();
      const seconds = (performance.now() - started) / 1000;
      expect(p99(times), `health answer times (ms): ${times.slice(-5).map(Math.round).join(', ')}`).toBeLessThanOrEqual(
        HEALTH_P99_MS,
      );
      // Only what the user's byte budget allows got in: far from the 39 MB of the review's flood.
      const reader = openChat(fresh.seller.http, fresh.room);
      await reader.synced(30_000);
      const stored = reader.messages.length;
      reader.destroy();
      expect(stored).toBeGreaterThan(0);
      expect(stored * 5_000).toBeLessThanOrEqual(
        CHAT_LIMITS.byteBurst + 5_100 + seconds * CHAT_LIMITS.bytesPerSecond * 1.1,
      );
    },
  );

  it(
    '20 sockets each sending a 27-byte write to `stamps` in a room near its size limit',
    { timeout: 60_000 },
    async () => {
      const forged = new Y.Doc();
      forged.getMap(CHAT_STAMPS_MAP).set('m', 1);
      const frame = updateFrame(Y.encodeStateAsUpdate(forged));
      expect(frame.byteLength).toBeLessThan(40);
      const closes: { code: number; reason: string }[] = [];
      const times = await healthDuring(async () => {
        const sockets = await Promise.all(Array.from({ length: 20 }, () => rawSocket(big.buyer, big.room)));
        for (const s of sockets) if (s.socket.readyState === s.socket.OPEN) s.socket.send(frame);
        closes.push(...(await Promise.all(sockets.map((s) => s.closed))));
      });
      expect(p99(times), `health answer times (ms): ${times.slice(-5).map(Math.round).join(', ')}`).toBeLessThanOrEqual(
        HEALTH_P99_MS,
      );
      // Each got a clear answer: the write refused, or the socket over the cap closed.
      const refused = closes.filter((c) => c.code === CLOSE_CODES.refused);
      const capped = closes.filter((c) => c.code === CLOSE_CODES.tooMany);
      expect(refused.length + capped.length).toBe(20);
      expect(refused.length).toBeLessThanOrEqual(CHAT_LIMITS.socketsPerUserInRoom);
      for (const c of refused) expect(c.reason).toBe('Only the server writes stamps');
      for (const c of capped) expect(c.reason).toMatch(/Too many chat connections|too fast/);
    },
  );

  it(
    'five 4-byte sync requests with an empty state vector ([0,0,1,0]) on one socket, in a room near its size limit',
    { timeout: 60_000 },
    async () => {
      const asker = await rawSocket(big.seller, big.room);
      const times = await healthDuring(async () => {
        for (let i = 0; i < 5; i++) asker.socket.send(new Uint8Array([0, 0, 1, 0]));
        // Each request is answered (its sync step 2 closes the answer): five of them, besides the server's own step 1.
        await waitFor('five answers', () => asker.frames.filter((f) => f[0] === 0 && f[1] === 1).length >= 5, 30_000);
      });
      asker.socket.terminate();
      expect(p99(times), `health answer times (ms): ${times.slice(-5).map(Math.round).join(', ')}`).toBeLessThanOrEqual(
        HEALTH_P99_MS,
      );
      // And an answer holds the whole room: a client applying it has every message.
      const client = new Y.Doc();
      const firstAnswerEnd = asker.frames.findIndex((f) => f[0] === 0 && f[1] === 1);
      for (const f of asker.frames.slice(0, firstAnswerEnd + 1)) {
        if (f[0] === 0 && f[1] !== 0) Y.applyUpdate(client, readPayload(f));
      }
      expect(client.getArray(CHAT_MESSAGES_ARRAY).length).toBeGreaterThan(700);
    },
  );

  it(
    '300 sockets × 3 presence updates: sockets capped with a clear close, presence fan-out bounded',
    { timeout: 120_000 },
    async () => {
      const watcher = await rawSocket(fresh.seller, fresh.room);
      const before = watcher.frames.length;
      const closes: { code: number; reason: string }[] = [];
      let opened = 0;
      const started = performance.now();
      const times = await healthDuring(async () => {
        const sockets = await Promise.all(Array.from({ length: 300 }, () => rawSocket(fresh.buyer, fresh.room)));
        for (const s of sockets) {
          if (s.socket.readyState !== s.socket.OPEN) continue;
          opened++;
          const presence = new awarenessProtocol.Awareness(new Y.Doc());
          for (const typing of [true, false, true]) {
            presence.setLocalState({ user: { id: fresh.buyer.user.id, name: 'Fresh Buyer' }, typing });
            s.socket.send(awarenessFrame(awarenessProtocol.encodeAwarenessUpdate(presence, [presence.clientID])));
          }
        }
        await new Promise((r) => setTimeout(r, 500));
        for (const s of sockets) s.socket.close();
        closes.push(...(await Promise.all(sockets.map((s) => s.closed))));
      });
      const seconds = (performance.now() - started) / 1000;
      watcher.socket.terminate();
      // Not held to the 100 ms p99 (the issue asks it of the two floods above): opening 300
      // connections at once costs this test process as much as the server, and the probe shares it.
      console.log(`300 sockets: health p99 ${Math.round(p99(times))} ms`);
      const capped = closes.filter((c) => c.code === CLOSE_CODES.tooMany);
      expect(capped.length).toBeGreaterThanOrEqual(300 - CHAT_LIMITS.socketsPerUserInRoom);
      for (const c of capped) expect(c.reason).toMatch(/Too many chat connections|too fast/);
      // The watcher hears presence at most once per flush interval (plus its own join's frames).
      const presenceFrames = watcher.frames.slice(before).filter((f) => f[0] === 1).length;
      expect(presenceFrames).toBeLessThanOrEqual(Math.ceil((seconds * 1000) / CHAT_LIMITS.awarenessFlushMs) + 3);
      // Only the sockets the server kept open (closed later by this test, not by the cap) were in the room.
      expect(opened).toBeGreaterThan(0);
      expect(closes.filter((c) => c.code !== CLOSE_CODES.tooMany).length).toBeLessThanOrEqual(
        CHAT_LIMITS.socketsPerUserInRoom,
      );
    },
  );
});

/** The Yjs update inside a sync step 2 or update frame. */
function readPayload(frame: Uint8Array): Uint8Array {
  let pos = 2;
  let len = 0;
  for (let shift = 0; ; shift += 7) {
    const b = frame[pos++]!;
    len += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) break;
  }
  return frame.subarray(pos, pos + len);
}

function awarenessFrame(update: Uint8Array): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, 1);
  encoding.writeVarUint8Array(e, update);
  return encoding.toUint8Array(e);
}
