import { describe, expect, it } from 'vitest';
import {
  isDocumentOf,
  isReplicated,
  ProtocolError,
  pullPath,
  PUSH_ROWS_MAX,
  readChangesEvent,
  readPullAnswer,
  readPushAnswer,
  REFUSAL_REASONS,
  SYNC_PROTOCOL_VERSION,
} from './protocol';
import { pullQuerySchema, pushBodySchema } from './requests';

describe('the sync protocol', () => {
  it('is version 1, which travels nowhere', () => {
    expect(SYNC_PROTOCOL_VERSION).toBe(1);
  });

  it('pull: the query defaults, bounds and refuses anything else', () => {
    expect(pullQuerySchema.parse({})).toEqual({ seq: 0, limit: 200 });
    expect(pullQuerySchema.parse({ seq: '12', limit: '1000' })).toEqual({ seq: 12, limit: 1000 });
    for (const bad of [{ seq: '-1' }, { limit: '0' }, { limit: '1001' }, { seq: '1.5' }, { since: '3' }])
      expect(pullQuerySchema.safeParse(bad).success).toBe(false);
    expect(pullPath('gigs', { seq: 7, limit: 50 })).toBe('/api/sync/gigs/pull?seq=7&limit=50');
  });

  it('pull: the answer is the documents and the checkpoint, fields added later pass', () => {
    const answer = { documents: [{ id: 'g1', _deleted: false, title: 'A' }], checkpoint: { seq: 3 }, more: true };
    expect(readPullAnswer(answer)).toEqual({
      documents: [{ id: 'g1', _deleted: false, title: 'A' }],
      checkpoint: { seq: 3 },
    });
    for (const bad of [
      { documents: [{ id: 'g1' }], checkpoint: { seq: 3 } },
      { documents: [{ id: 7, _deleted: false }], checkpoint: { seq: 3 } },
      { documents: [null], checkpoint: { seq: 3 } },
      { documents: {}, checkpoint: { seq: 3 } },
      { documents: [], checkpoint: { seq: -1 } },
      { documents: [], checkpoint: { seq: 1.5 } },
      { documents: [], checkpoint: { seq: '3' } },
      { documents: [], checkpoint: { seq: 2 ** 53 } },
      { documents: [] },
      '<html>A proxy’s page</html>',
      [],
      null,
    ])
      expect(() => readPullAnswer(bad), JSON.stringify(bad)).toThrow(ProtocolError);
  });

  it('push: a list of rows, each any object, at most 500; nothing else in a row', () => {
    expect(
      pushBodySchema.safeParse([{ newDocumentState: { id: 7 } }, { assumedMasterState: null, newDocumentState: {} }])
        .success,
    ).toBe(true);
    expect(pushBodySchema.safeParse([{ newDocumentState: {}, extra: 1 }]).success).toBe(false);
    expect(pushBodySchema.safeParse({ newDocumentState: {} }).success).toBe(false);
    expect(
      pushBodySchema.safeParse(Array.from({ length: PUSH_ROWS_MAX + 1 }, () => ({ newDocumentState: {} }))).success,
    ).toBe(false);
  });

  it('push: the answer is the server states and the refusals with their reasons', () => {
    const answer = {
      conflicts: [{ id: 'g1', _deleted: true }],
      refused: [{ id: 'g1', reason: REFUSAL_REASONS.noAccess }],
    };
    expect(readPushAnswer({ ...answer, more: 1 })).toEqual(answer);
    expect(readPushAnswer({ conflicts: [], refused: [{ id: 'g1', reason: 'no', extra: 2 }] }).refused).toEqual([
      { id: 'g1', reason: 'no' },
    ]);
    for (const bad of [
      { conflicts: [], refused: [{ id: 'g1' }] },
      { conflicts: [{ id: 'g1' }], refused: [] },
      { conflicts: [] },
      { refused: [] },
    ])
      expect(() => readPushAnswer(bad), JSON.stringify(bad)).toThrow(ProtocolError);
  });

  it('stream: a changes event names its collection, any name (a newer server may add one)', () => {
    const event = { collection: 'portfolios', documents: [{ id: 'p1', _deleted: false }], checkpoint: { seq: 9 } };
    expect(readChangesEvent(event)).toEqual(event);
    for (const bad of [
      { ...event, collection: 7 },
      { ...event, documents: [{ id: 'p1' }] },
      { ...event, checkpoint: {} },
    ])
      expect(() => readChangesEvent(bad), JSON.stringify(bad)).toThrow(ProtocolError);
    expect(isReplicated('portfolios')).toBe(false);
    expect(isReplicated('gigs')).toBe(true);
  });

  it('a device stores only documents whose id follows their collection’s rule', () => {
    expect(isDocumentOf('gigs', { id: 'gig-abc123', _deleted: false })).toBe(true);
    expect(isDocumentOf('gigs', { id: 'toString', _deleted: false })).toBe(false);
    expect(isDocumentOf('applications', { id: 'gig123.user456' })).toBe(true);
    expect(isDocumentOf('applications', { id: 'gig123' })).toBe(false);
    expect(isDocumentOf('gigs', null)).toBe(false);
    expect(isDocumentOf('gigs', 'gig-abc123')).toBe(false);
  });
});
