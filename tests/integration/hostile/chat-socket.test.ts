import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { conversationIdFor } from '../../../shared/ids';
import { hostileChatFrame, hostileUpgrade } from '../../support/hostile';
import { type TestServer } from '../../support/in-process-server';
import { waitFor } from '../../support/wait';
import { chatMessage, chatSocketBase, openChat } from '../../support/yjs-client';
import { attackerOf, N, root, run, suite, TIMEOUT, useHostileSuite } from '../../support/hostile-suite';

useHostileSuite();

// ---------------------------------------------------------------------------------------------
// The chat socket

type UpgradeAnswer = { status: number; contentType: string | undefined; body: string };

/** Sends an upgrade request as is and reports the answer (101 when a socket opened). */
function upgrade(
  on: TestServer,
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<UpgradeAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: on.port, method, path, headers });
    req.on('upgrade', (_res, socket) => {
      socket.destroy();
      resolve({ status: 101, contentType: undefined, body: '' });
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'], body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe(`the chat socket (${N} hostile upgrade requests, ${N} hostile messages)`, () => {
  it(
    'refuses every hostile upgrade before it opens, with a 4xx JSON { error }',
    async () => {
      const r = root.fork('chat-upgrade');
      const me = suite.w.attacker.user.id;
      const ctx = {
        ...attackerOf(),
        ownRoom: suite.w.room,
        foreignRoom: suite.w.victimRoom,
        unlinkedRoom: conversationIdFor(me, suite.w.loner.user.id),
        selfRoom: `${me}_${me}`,
      };
      const violations = await run(
        suite.server,
        'chat socket upgrade',
        N,
        async () => {
          const u = hostileUpgrade(r, ctx);
          const a = await upgrade(suite.server, u.method, u.path, u.headers);
          let problem: string | undefined;
          let json: Record<string, unknown> | undefined;
          try {
            json = JSON.parse(a.body) as Record<string, unknown>;
          } catch {
            json = undefined;
          }
          if (a.status < 400 || a.status >= 500) problem = `answered ${a.status} ${a.body.slice(0, 100)}`;
          else if (u.status !== 'any4xx' && a.status !== u.status)
            problem = `${a.status} instead of ${u.status}: ${a.body.slice(0, 100)}`;
          else if (!/^application\/json/.test(a.contentType ?? '') || typeof json?.error !== 'string')
            problem = `no JSON { error }: ${a.contentType} ${a.body.slice(0, 100)}`;
          return { defect: u.defect, problem };
        },
        [suite.w.room, suite.w.victimRoom],
      );
      expect(violations.slice(0, 15), `${violations.length} violations`).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'closes the socket (4400 not the protocol, 4403 refused, 1009 too big) or ignores each hostile message; never an error close, never a change',
    async () => {
      const r = root.fork('chat-messages');
      // Held open for `serverState` to read it as the server's store has it (the PostgreSQL
      // store reads a log it does not hold from the database).
      await suite.server.ctx.store.openChat(suite.w.room);
      const roomCtx = {
        userId: suite.w.attacker.user.id,
        otherId: suite.w.s1.user.id,
        serverState: () => suite.server.ctx.store.chatUpdates(suite.w.room),
      };
      const url = `${chatSocketBase(suite.server.url)}/${suite.w.room}`;
      const cookie = suite.w.attacker.http.cookieHeader();
      let violations: Awaited<ReturnType<typeof run>>;
      try {
        violations = await run(
          suite.server,
          'chat socket messages',
          N,
          async (i) => {
            const f =
              i % 97 === 96
                ? { defect: 'a frame over 4 MiB', data: new Uint8Array(4 * 1024 * 1024 + 10), mayBeIgnored: false }
                : hostileChatFrame(r, roomCtx);
            const ws = new WebSocket(url, { headers: { cookie }, origin: suite.server.url });
            const outcome = await new Promise<{ closed?: number; alive?: boolean; reason?: string }>(
              (resolve, reject) => {
                let probed = false;
                ws.on('error', () => undefined);
                ws.on('close', (code, reason) => resolve({ closed: code, reason: reason.toString() }));
                ws.on('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
                ws.on('open', () => {
                  ws.send(f.data, { binary: typeof f.data !== 'string' });
                  // Sync step 1 with an empty state vector: its answer (sync step 2) shows the socket is
                  // alive and that the hostile frame, sent before it, was handled.
                  ws.send(new Uint8Array([0, 0, 1, 0]));
                  probed = true;
                });
                ws.on('message', (data: Buffer) => {
                  if (probed && data[0] === 0 && data[1] === 1) resolve({ alive: true });
                });
              },
            );
            ws.terminate();
            let problem: string | undefined;
            if (outcome.alive && !f.mayBeIgnored) problem = 'the socket stayed open';
            if (outcome.closed !== undefined && ![4400, 4403, 1009].includes(outcome.closed))
              problem = `closed with ${outcome.closed} ${outcome.reason ?? ''}`;
            return { defect: f.defect, problem };
          },
          [suite.w.room],
        );
      } finally {
        suite.server.ctx.store.closeChat(suite.w.room);
      }
      expect(violations.slice(0, 15), `${violations.length} violations`).toEqual([]);
      // The room carries on: its participants still exchange messages.
      const chat = openChat(suite.w.s1.http, suite.w.room);
      await chat.synced();
      chat.send(chatMessage(suite.w.s1.user.id, suite.w.attacker.user.id, 'Still here.'));
      await waitFor('a new message is stamped', () => chat.stamps.size === 2);
      chat.destroy();
    },
    // Each payload opens a socket of its own (upgrade, session, room) and waits for its close or
    // the sync answer: ~100 ms apiece here, against the 40 ms of TIMEOUT's budget per payload, which
    // the long form (2,000 payloads: 195 s) overran on the code of 7444108 and after alike.
    30_000 + N * 150,
  );
});
