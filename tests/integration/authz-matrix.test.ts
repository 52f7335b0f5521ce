import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIONS, type Outcome } from '../support/authz/actions';
import { MATRIX, type Expected } from '../support/authz/matrix';
import { buildWorld, OPERATOR_EMAIL, ROLES, type World } from '../support/authz/world';
import { startTestServer, type TestServer } from '../support/in-process-server';

/**
 * Issue 9, suite 2: the authorization matrix. Every role (visitor, stranger, the gig's buyer, an
 * applicant, another applicant, and an operator: decision 031) tries every action (each HTTP route of the README's API table,
 * each kind of pushed write the policies know, each pull and the change stream, each chat room
 * socket) against one real server with the simulated payments provider, and every outcome is
 * compared with the explicit table in tests/support/authz/matrix.ts.
 */

let server: TestServer;
let world: World;

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: 'silent', OPERATOR_EMAILS: OPERATOR_EMAIL });
  world = await buildWorld(server, { operatorEmail: OPERATOR_EMAIL });
});
afterAll(async () => {
  for (const cleanup of world?.cleanups ?? []) await cleanup();
  await server?.cleanup();
});

type Verdict = 'ok' | 'unexpected allow' | 'unexpected denial' | 'other refusal';

function verdict(expected: Expected, actual: Outcome): Verdict {
  if (expected.allow) return actual.allowed ? 'ok' : 'unexpected denial';
  if (actual.allowed) return 'unexpected allow';
  if (expected.status !== undefined) {
    const statuses: readonly number[] = typeof expected.status === 'number' ? [expected.status] : expected.status;
    if (actual.status === undefined || !statuses.includes(actual.status)) return 'other refusal';
  }
  if (expected.reason !== undefined && actual.reason !== expected.reason) return 'other refusal';
  return 'ok';
}

const show = (o: Outcome | Expected) =>
  'allowed' in o
    ? o.allowed
      ? 'allowed'
      : `denied ${o.status ?? ''} ${o.reason ?? ''}`.trim()
    : o.allow
      ? 'allowed'
      : `denied ${JSON.stringify(o.status) ?? ''} ${o.reason ?? ''}`.trim();

describe('authorization matrix', () => {
  it('the table has exactly one row per role × action', () => {
    const names = ACTIONS.map((a) => a.name);
    expect(new Set(names).size).toBe(names.length);
    const keys = MATRIX.map(([action, role]) => `${action} | ${role}`);
    expect(new Set(keys).size, 'duplicate rows').toBe(keys.length);
    const expectedKeys = names.flatMap((n) => ROLES.map((r) => `${n} | ${r}`));
    expect([...keys].sort()).toEqual([...expectedKeys].sort());
  });

  it('every cell has its expected outcome', async () => {
    const rows = new Map(MATRIX.map(([action, role, expected]) => [`${action} | ${role}`, expected]));
    const ordered = [...ACTIONS].sort((a, b) => (a.phase ?? 1) - (b.phase ?? 1));
    const problems: Record<Exclude<Verdict, 'ok'>, string[]> = {
      'unexpected allow': [],
      'unexpected denial': [],
      'other refusal': [],
    };
    const started = Date.now();
    let cells = 0;
    for (const action of ordered) {
      for (const role of ROLES) {
        const expected = rows.get(`${action.name} | ${role}`)!;
        let actual: Outcome;
        try {
          actual = await action.run(world, role);
        } catch (err) {
          throw new Error(`cell "${action.name}" as ${role} could not run: ${(err as Error).stack ?? String(err)}`);
        }
        cells += 1;
        const v = verdict(expected, actual);
        if (v !== 'ok') problems[v].push(`${action.name} | ${role}: expected ${show(expected)}, got ${show(actual)}`);
      }
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `authz matrix: ${cells} cells, ${problems['unexpected allow'].length} unexpected allows, ${problems['unexpected denial'].length} unexpected denials` +
        ` (${problems['other refusal'].length} refusals with another status or reason; ${seconds} s)`,
    );
    for (const [kind, list] of Object.entries(problems)) for (const line of list) console.log(`  ${kind}: ${line}`);
    expect(cells).toBe(MATRIX.length);
    expect(problems['unexpected allow']).toEqual([]);
    expect(problems['unexpected denial']).toEqual([]);
    expect(problems['other refusal']).toEqual([]);
    // Six roles over every action, each cell on fresh fixtures where it changes something.
  }, 180_000);
});
