import * as encoding from 'lib0/encoding';
import { describe, expect, it } from 'vitest';
import { readOwnAwareness } from './awareness-filter';

const ALICE = 'alice-0001';

/** An awareness update as y-protocols encodes it: count, then client id, clock, JSON state. */
function awareness(entries: [clientId: number, state: unknown][]): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, entries.length);
  for (const [clientId, state] of entries) {
    encoding.writeVarUint(e, clientId);
    encoding.writeVarUint(e, 1);
    encoding.writeVarString(e, JSON.stringify(state));
  }
  return encoding.toUint8Array(e);
}

const mine = (id: number) => id === 7;

describe('awareness a client may send: only its own presence', () => {
  it.each<[string, unknown]>([
    ['the signed-in user, typing', { user: { id: ALICE, name: 'Alice' }, typing: true }],
    ['only the user', { user: { id: ALICE, name: 'Alice' } }],
    ['an empty state (y-websocket starts with one)', {}],
    ['a removal', null],
  ])('keeps %s', (_case, state) => {
    expect(readOwnAwareness(awareness([[7, state]]), ALICE, mine)).toEqual([{ clientId: 7, state }]);
  });

  it.each<[string, [number, unknown][]]>([
    ["another user's id", [[7, { user: { id: 'bob-000002', name: 'Alice' } }]]],
    ['a field we do not carry', [[7, { user: { id: ALICE, name: 'A' }, cursor: 3 }]]],
    ['an extra field in user', [[7, { user: { id: ALICE, name: 'A', avatar: 'x' } }]]],
    ['typing that is not a boolean', [[7, { typing: 'yes' }]]],
    ['a name over 100 characters', [[7, { user: { id: ALICE, name: 'n'.repeat(101) } }]]],
    ['[decision 013] a name with a right-to-left override', [[7, { user: { id: ALICE, name: 'Al\u202Eice' } }]]],
    ['a state that is not an object', [[7, 'hello']]],
    ["another client's id", [[8, { typing: true }]]],
    [
      'one good entry beside a bad one',
      [
        [7, { typing: true }],
        [8, { typing: true }],
      ],
    ],
  ])('drops %s', (_case, entries) => {
    expect(readOwnAwareness(awareness(entries), ALICE, mine)).toBeUndefined();
  });

  it('drops bytes that are not an awareness update', () => {
    expect(readOwnAwareness(new Uint8Array([1, 7, 1, 3, 123, 123, 123]), ALICE, mine)).toBeUndefined();
    expect(readOwnAwareness(new Uint8Array([]), ALICE, mine)).toBeUndefined();
  });
});
