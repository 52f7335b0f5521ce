import { describe, expect, it } from 'vitest';
import type { ApplicationStatus } from './constants';
import { acceptedCount, isFilled, offersLeft, onBoardFor, openingsError, openingsOf, takenOpenings } from './hiring';

const apps = (...statuses: ApplicationStatus[]) => statuses.map((status) => ({ status }));

describe('[decision 014] openings and filled gigs', () => {
  it('a gig written before openings existed hires one person', () => {
    expect(openingsOf({})).toBe(1);
    expect(openingsOf({ openings: 4 })).toBe(4);
  });

  it('accepted offers (PENDING_PAYMENT, IN_PROGRESS, COMPLETED) fill openings; waiting applicants and declines do not', () => {
    expect(acceptedCount(apps('PENDING', 'PENDING_ACCEPTANCE', 'REJECTED', 'CLOSED'))).toBe(0);
    expect(acceptedCount(apps('PENDING_PAYMENT', 'IN_PROGRESS', 'COMPLETED'))).toBe(3);
    expect(isFilled({}, apps('PENDING', 'PENDING_ACCEPTANCE'))).toBe(false);
    expect(isFilled({}, apps('COMPLETED', 'PENDING'))).toBe(true);
    expect(isFilled({ openings: 2 }, apps('COMPLETED', 'PENDING'))).toBe(false);
    expect(isFilled({ openings: 2 }, apps('COMPLETED', 'IN_PROGRESS'))).toBe(true);
  });

  it('an offer waiting for its answer holds an opening: never more offers out and accepted than openings', () => {
    expect(takenOpenings(apps('PENDING_ACCEPTANCE', 'IN_PROGRESS', 'PENDING', 'REJECTED'))).toBe(2);
    expect(offersLeft({}, apps('PENDING'))).toBe(1);
    expect(offersLeft({}, apps('PENDING_ACCEPTANCE', 'PENDING'))).toBe(0);
    expect(offersLeft({ openings: 3 }, apps('PENDING_ACCEPTANCE', 'COMPLETED', 'REJECTED'))).toBe(1);
    // A declined offer gives its opening back.
    expect(offersLeft({}, apps('REJECTED', 'PENDING'))).toBe(1);
  });

  it('openings are a whole number from 1 to 50, never fewer than the offers out and accepted', () => {
    for (const ok of [1, 50, '3', ' 12 ']) expect(openingsError(ok)).toBeUndefined();
    for (const bad of [0, 51, 1.5, -1, Number.NaN, '', '2.0', 'x', null, undefined, true]) {
      expect(openingsError(bad)).toBe('Openings must be a whole number from 1 to 50');
    }
    expect(openingsError(1, apps('COMPLETED', 'PENDING_ACCEPTANCE'))).toBe(
      'Openings cannot be fewer than the offers already sent or accepted',
    );
    expect(openingsError(2, apps('COMPLETED', 'PENDING_ACCEPTANCE'))).toBeUndefined();
  });

  it('a filled gig leaves the board for everyone but its creator and its applicants', () => {
    const gig = { id: 'gig-00001', createdBy: 'buyer-1', filledAt: 5 };
    expect(onBoardFor(gig, 'stranger-1', new Set())).toBe(false);
    expect(onBoardFor(gig, 'buyer-1', new Set())).toBe(true);
    expect(onBoardFor(gig, 'applicant-1', new Set(['gig-00001']))).toBe(true);
    expect(onBoardFor({ ...gig, filledAt: null }, 'stranger-1', new Set())).toBe(true);
    expect(onBoardFor({ id: 'gig-00002', createdBy: 'buyer-1' }, 'stranger-1', new Set())).toBe(true);
  });
});
