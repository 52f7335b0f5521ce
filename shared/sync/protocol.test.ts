import { describe, expect, it } from 'vitest';
import {
  changesEventSchema,
  checkpointSchema,
  isDocumentOf,
  isReplicated,
  pullAnswerSchema,
  pullPath,
  pullQuerySchema,
  pushAnswerSchema,
  pushBodySchema,
  PUSH_ROWS_MAX,
  REFUSAL_REASONS,
  SYNC_PROTOCOL_VERSION,
} from './protocol';

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
    expect(pullAnswerSchema.parse(answer)).toEqual({
      documents: [{ id: 'g1', _deleted: false, title: 'A' }],
      checkpoint: { seq: 3 },
    });
    expect(pullAnswerSchema.safeParse({ documents: [{ id: 'g1' }], checkpoint: { seq: 3 } }).success).toBe(false);
    expect(checkpointSchema.safeParse({ seq: -1 }).success).toBe(false);
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
    expect(pushAnswerSchema.parse(answer)).toEqual(answer);
    expect(pushAnswerSchema.safeParse({ conflicts: [], refused: [{ id: 'g1' }] }).success).toBe(false);
  });

  it('stream: a changes event names its collection, any name (a newer server may add one)', () => {
    const event = { collection: 'portfolios', documents: [{ id: 'p1', _deleted: false }], checkpoint: { seq: 9 } };
    expect(changesEventSchema.parse(event)).toEqual(event);
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
