import { describe, expect, it } from 'vitest';
import { decideClaim } from './claims';
import { CLAIM_KEPT_MS, FRESH_MS } from './limits';

const now = 1_800_000_000_000;
const claim = (notificationId: string, createdAt: number) => ({ notificationId, createdAt, claimedAt: createdAt });

describe('the claim on a notification’s push', () => {
  it('is taken once per notification and createdAt: a refreshed chat notification is news again', () => {
    const first = decideClaim([], { id: 'n1', createdAt: now }, now, 100);
    expect(first.outcome).toBe('claimed');
    expect(decideClaim(first.claims!, { id: 'n1', createdAt: now }, now, 100).outcome).toBe('taken');
    const refreshed = decideClaim(first.claims!, { id: 'n1', createdAt: now + 1 }, now + 1, 100);
    expect(refreshed.outcome).toBe('claimed');
    expect(refreshed.claims).toEqual([{ notificationId: 'n1', createdAt: now + 1, claimedAt: now + 1 }]);
  });

  it('is refused for a notification no longer fresh, whatever instance asks', () => {
    expect(decideClaim([], { id: 'n1', createdAt: now - FRESH_MS - 1 }, now, 100).outcome).toBe('stale');
  });

  it('drops the claims that can no longer matter as it is written', () => {
    const old = claim('old', now - CLAIM_KEPT_MS - 1);
    const recent = claim('recent', now - FRESH_MS);
    const { claims } = decideClaim([old, recent], { id: 'n1', createdAt: now }, now, 100);
    expect(claims!.map((c) => c.notificationId)).toEqual(['recent', 'n1']);
  });

  it('is capped per user: past the limit, newer notifications are not pushed until older claims age out', () => {
    const full = [claim('a', now - 1), claim('b', now - 1)];
    expect(decideClaim(full, { id: 'c', createdAt: now }, now, 2).outcome).toBe('full');
    // A notification already claimed is refreshed in place, without taking room.
    expect(decideClaim(full, { id: 'a', createdAt: now }, now, 2).outcome).toBe('claimed');
    expect(decideClaim(full, { id: 'c', createdAt: now + CLAIM_KEPT_MS }, now + CLAIM_KEPT_MS, 2).outcome).toBe(
      'claimed',
    );
  });
});
