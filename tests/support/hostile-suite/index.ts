import { afterAll, beforeAll } from 'vitest';
import { HOSTILE_SEED, type Attacker } from '../hostile';
import { startTestServer } from '../in-process-server';
import { tallies } from './judge';
import { buildWorld, N, suite } from './world';

export * from './judge';
export * from './rows';
export * from './specs';
export * from './specs-common';
export * from './world';

/**
 * Issue 9, suite 1: for every HTTP endpoint and the chat socket, HOSTILE_PAYLOADS (200 here, thousands
 * in `npm run test:hostile`) generated requests, each with one known defect: wrong types, missing and
 * extra fields, huge strings, deep nesting, prototype keys, bad JSON, wrong content types and
 * encodings, other origins, missing, forged and revoked cookies, other users' ids. Every one must be
 * refused with a 4xx and a JSON `{ error }`, never a 5xx, and leave the store exactly as it was.
 * The seed is printed; HOSTILE_SEED=<seed> replays a run.
 *
 * This module is what the suite's files (tests/integration/hostile/: http, webhooks, chat-socket,
 * named-cases) share: the server and the attacker's world, the endpoint specs, and the judge.
 */

/**
 * Starts the server the hostile payloads go to and builds the attacker's world before the file's
 * tests; after them, closes it and prints what was tried and what broke, per endpoint.
 */
export function useHostileSuite(): void {
  beforeAll(async () => {
    console.log(
      `hostile input: seed ${HOSTILE_SEED}, ${N} payloads per endpoint (HOSTILE_SEED=${HOSTILE_SEED} replays this run)`,
    );
    // No background snapshot and no idle room unload: both write to the data folder with no request.
    const server = await startTestServer({
      SNAPSHOT_INTERVAL_MS: '3600000',
      SNAPSHOT_EVERY_COMMITS: '10000000',
      CHAT_ROOM_IDLE_MS: '3600000',
    });
    suite.server = server;
    suite.w = await buildWorld(server);
    suite.publicAnswer = await (await fetch(`${server.url}/api/public-config`)).text();
  }, 60_000);

  afterAll(async () => {
    await suite.server?.cleanup();
    if (tallies.length) {
      const width = Math.max(...tallies.map((t) => t.endpoint.length));
      const lines = tallies.map(
        (t) => `  ${t.endpoint.padEnd(width)}  ${String(t.tried).padStart(6)}  ${String(t.violations).padStart(4)}`,
      );
      const tried = tallies.reduce((n, t) => n + t.tried, 0);
      const violations = tallies.reduce((n, t) => n + t.violations, 0);
      console.log(
        `hostile input (seed ${HOSTILE_SEED}):\n  ${'endpoint'.padEnd(width)}   tried  viol.\n${lines.join('\n')}\n  payloads tried: ${tried}, violations: ${violations}`,
      );
    }
  });
}

export const attackerOf = (): Attacker => ({
  origin: suite.server.url,
  cookie: suite.w.attacker.http.cookieHeader(),
  revokedCookies: suite.w.revokedCookies,
  storedSessionIds: suite.w.storedSessionIds,
});
