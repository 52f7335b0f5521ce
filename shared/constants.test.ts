import { describe, expect, it } from 'vitest';
import {
  APPLICATION_STATUSES,
  BREAKPOINTS,
  COUNTRIES,
  DEFAULT_CURRENCY,
  FEES,
  FILTER_LOCATION_TYPES,
  isWorkFinished,
  LIMITS,
  LOCATION_TYPES,
  NEW_APPLICATION_WINDOW_MS,
  NICHES,
  NOTIFICATION_TYPES,
  REDIRECT_DELAYS_MS,
} from './constants';

describe('docs/product.md §3 and §9 constants', () => {
  it('five countries with their currency and symbol; default currency CAD', () => {
    expect(COUNTRIES.map((c) => [c.code, c.name, c.currency, c.symbol])).toEqual([
      ['US', 'United States', 'USD', '$'],
      ['GB', 'United Kingdom', 'GBP', '£'],
      ['CA', 'Canada', 'CAD', 'C$'],
      ['FR', 'France', 'EUR', '€'],
      ['NG', 'Nigeria', 'NGN', '₦'],
    ]);
    expect(DEFAULT_CURRENCY).toBe('CAD');
  });

  it('eight niches, each list ending with Other; craft_diy displays as Crafts', () => {
    expect(NICHES.map((n) => n.id)).toEqual([
      'visual_art',
      'media',
      'writing',
      'music_and_sound',
      'performing_arts',
      'fashion',
      'craft_diy',
      'creative_business_owner',
    ]);
    for (const n of NICHES) expect(n.subcategories[n.subcategories.length - 1]).toBe('Other');
    expect(NICHES.find((n) => n.id === 'craft_diy')!.name).toBe('Crafts');
    expect(NICHES.find((n) => n.id === 'visual_art')!.subcategories).toEqual([
      'Illustration',
      'Painting',
      'Digital Art',
      'Drawing',
      'Graphic Design',
      'Web Design',
      'Other',
    ]);
    expect(NICHES.find((n) => n.id === 'music_and_sound')!.subcategories).toEqual([
      'Production',
      'Sound Design',
      'Engineering',
      'Singing',
      'DJing',
      'Other',
    ]);
    expect(NICHES.find((n) => n.id === 'creative_business_owner')!.subcategories).toEqual([
      'Social Media Creation',
      'Podcasting',
      'Influencer Marketing',
      'Brand Ownership',
      'Other',
    ]);
  });

  it('location types, the filter offering only remote and in-person', () => {
    expect(LOCATION_TYPES).toEqual(['remote', 'in-person', 'hybrid']);
    expect(FILTER_LOCATION_TYPES).toEqual(['remote', 'in-person']);
  });

  it('limits, fees, delays, badge window and breakpoints', () => {
    expect([LIMITS.titleMax, LIMITS.descriptionMax, LIMITS.usernameMin, LIMITS.passwordMin]).toEqual([100, 500, 3, 8]);
    expect(FEES).toEqual({ platformFeeRate: 0.1, buyerServiceFeeRate: 0.03 });
    expect(REDIRECT_DELAYS_MS).toEqual({
      afterSignup: 1500,
      afterLogin: 1500,
      afterSetup: 1500,
      afterPaymentSuccess: 5000,
    });
    expect(NEW_APPLICATION_WINDOW_MS).toBe(86_400_000);
    expect(BREAKPOINTS).toEqual({ videoMobilePx: 768, waitlistNavPx: 770 });
  });

  it('every notification type of docs/product.md §9, those of delivery, cancellation and disputes (issue 15), and the four of reviews', () => {
    expect(NOTIFICATION_TYPES).toHaveLength(14 + 12 + 4);
    expect(NOTIFICATION_TYPES).toEqual(
      expect.arrayContaining(['REVIEW_REQUESTED', 'REVIEW_REMINDER', 'REVIEW_RECEIVED', 'REVIEW_PUBLISHED']),
    );
    expect(NOTIFICATION_TYPES).toContain('application_status');
    expect(NOTIFICATION_TYPES).toContain('PAYMENT_CONFIRMED');
    expect(NOTIFICATION_TYPES.slice(14, 26)).toEqual([
      'WORK_DELIVERED',
      'CHANGES_REQUESTED',
      'PAYMENT_RELEASED',
      'APPLICATION_WITHDRAWN',
      'OFFER_WITHDRAWN',
      'WORK_CANCELLED',
      'CANCELLATION_REQUESTED',
      'CANCELLATION_REFUSED',
      'REFUND_ISSUED',
      'DISPUTE_OPENED',
      'DISPUTE_RESOLVED',
      'PAYMENT_PROBLEM',
    ]);
  });

  it('[issue 15] work finished with the freelancer paid (what reviews may rest on): completed, or split by an operator', () => {
    expect(APPLICATION_STATUSES.filter(isWorkFinished)).toEqual(['COMPLETED', 'SPLIT']);
  });
});
