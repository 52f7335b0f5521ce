import { describe, expect, it } from 'vitest';
import { APPLICATION_STATUSES, NOTIFICATION_TYPES } from './constants';
import {
  autoReleaseLabel,
  isBuyerWorkItem,
  basketViewFor,
  defaultBasketView,
  budgetLabel,
  buyerTabsOf,
  countriesInGigs,
  DEFAULT_NOTIFICATION_ICON,
  EMPTY_STATES,
  filterGigs,
  isNewApplication,
  isUnreadConversation,
  notificationIcon,
  offerLabel,
  notificationTarget,
  NO_FILTERS,
  sellerTabOf,
  shownGigStatus,
  skillPreview,
  statusLabel,
  unreadBadgeCount,
} from './display';

const H = 60 * 60 * 1000;

describe('gig cards', () => {
  it("passion-driven gigs display 'Passion Driven' instead of a budget", () => {
    expect(budgetLabel({ isPassionDriven: true, budget: '', currency: 'CAD' })).toBe('Passion Driven');
    expect(budgetLabel({ isPassionDriven: false, budget: '500-1000', currency: 'CAD' })).toBe('C$500.00 - C$1,000.00');
    expect(budgetLabel({ isPassionDriven: false, budget: '750', currency: 'NGN' })).toBe('₦750.00');
    expect(budgetLabel({ isPassionDriven: false, budget: '250.00', currency: 'CAD' })).toBe('C$250.00');
    expect(budgetLabel({ isPassionDriven: false, budget: '1,000.5 – 2000', currency: 'GBP' })).toBe(
      '£1,000.50 - £2,000.00',
    );
    // Text written before the budget rule is shown as typed.
    expect(budgetLabel({ isPassionDriven: false, budget: 'negotiable', currency: 'EUR' })).toBe('€negotiable');
  });
  it("an offer shows in the same format as the gig's budget, and an offer of nothing as 'Passion Driven', never ₦0.00", () => {
    expect(offerLabel(25_000, 'CAD')).toBe('C$250.00');
    expect(offerLabel(1235, 'CAD')).toBe('C$12.35');
    expect(offerLabel(0, 'NGN')).toBe('Passion Driven');
  });
  it.each([
    ['Painting', ['Painting'], null],
    ['Painting, Drawing', ['Painting', 'Drawing'], null],
    ['Painting, Drawing, Murals', ['Painting', 'Drawing'], '+1 more'],
    ['a, b, c, d, e', ['a', 'b'], '+3 more'],
  ])("cards show the first two skills and '+N more': %s", (skills, shown, moreLabel) => {
    expect(skillPreview(skills)).toEqual({ shown, moreLabel });
  });
});

describe('basket', () => {
  it('shown status: the first application in PENDING_PAYMENT, IN_PROGRESS or COMPLETED, otherwise the gig’s', () => {
    expect(shownGigStatus({ status: 'active' }, [{ status: 'PENDING' }, { status: 'REJECTED' }])).toBe('active');
    expect(
      shownGigStatus({ status: 'active' }, [{ status: 'PENDING' }, { status: 'COMPLETED' }, { status: 'IN_PROGRESS' }]),
    ).toBe('COMPLETED');
    expect(shownGigStatus({ status: 'active' }, [{ status: 'PENDING_PAYMENT' }])).toBe('PENDING_PAYMENT');
  });
  it("PENDING_ACCEPTANCE is shown as 'Waiting for freelancer to accept'", () => {
    expect(statusLabel('PENDING_ACCEPTANCE')).toBe('Waiting for freelancer to accept');
    expect(statusLabel('SELECTED')).toBe('Waiting for freelancer to accept');
  });
  it('buyer tabs All Gigs, In Progress, Completed and seller tabs Pending, In Progress, Completed', () => {
    expect(buyerTabsOf({ status: 'active' }, [])).toEqual(['All Gigs']);
    expect(buyerTabsOf({ status: 'active' }, [{ status: 'IN_PROGRESS' }])).toEqual(['All Gigs', 'In Progress']);
    expect(buyerTabsOf({ status: 'active' }, [{ status: 'COMPLETED' }])).toEqual(['All Gigs', 'Completed']);
    expect(sellerTabOf({ status: 'PENDING_ACCEPTANCE' })).toBe('Pending');
    expect(sellerTabOf({ status: 'IN_PROGRESS' })).toBe('In Progress');
    expect(sellerTabOf({ status: 'COMPLETED' })).toBe('Completed');
  });

  it('[decision 014] a declined offer shows under Declined, an application closed by a filled gig under Closed', () => {
    expect(sellerTabOf({ status: 'REJECTED' })).toBe('Declined');
    expect(sellerTabOf({ status: 'CLOSED' })).toBe('Closed');
    expect(sellerTabOf({ status: 'PENDING' })).toBe('Pending');
    expect(statusLabel('CLOSED')).toBe('Closed: position filled');
  });
});

describe('applications screen', () => {
  it.each([
    [0, true],
    [23.9 * H, true],
    [24 * H, false],
    [48 * H, false],
    [-H, false],
  ])('an application %i ms old shows the new badge: %s', (age, shown) => {
    expect(isNewApplication(1_000_000_000 - age, 1_000_000_000)).toBe(shown);
  });
});

describe('notifications', () => {
  it.each(NOTIFICATION_TYPES.map((t) => [t]))('type %s has an icon of its own', (type) => {
    expect(notificationIcon(type)).not.toBe(DEFAULT_NOTIFICATION_ICON);
  });
  it('a default icon covers the rest', () => expect(notificationIcon('something_new')).toBe(DEFAULT_NOTIFICATION_ICON));
  it.each([
    ['new_application', '/applications'],
    ['FINAL_BUDGET_OFFER', '/basket?view=seller'],
    ['payment_needed', '/basket?view=buyer'],
    ['GIG_STARTED', '/basket?view=buyer'],
    ['OFFER_REJECTED', '/basket?view=buyer'],
    ['GIG_COMPLETED', '/basket?view=seller'],
    ['PAYMENT_CONFIRMED', '/basket?view=seller'],
    ['new_message', '/exchange/user-b'],
    ['new_conversation', '/exchange/user-b'],
    ['application_status', '/gig/gig-1'],
    ['mystery', '/notifications'],
    ['REVIEW_REQUESTED', '/basket?review=gig-1.user-b'],
    ['REVIEW_REMINDER', '/basket?review=gig-1.user-b'],
    ['REVIEW_RECEIVED', '/basket?review=gig-1.user-b'],
    ['REVIEW_PUBLISHED', '/basket?review=gig-1.user-b'],
  ])('clicking %s navigates to %s', (type, target) => {
    expect(
      notificationTarget({ type: type as never, senderId: 'user-b', gigId: 'gig-1', applicationId: 'gig-1.user-b' }),
    ).toBe(target);
  });
});

describe('unread conversations and the nav badge (docs/product.md §4)', () => {
  const me = 'me-user';
  it.each([
    [{ lastSenderId: 'other', lastMessageRead: false }, true],
    [{ lastSenderId: 'other', lastMessageRead: true }, false],
    [{ lastSenderId: me, lastMessageRead: false }, false],
    [{ lastSenderId: null, lastMessageRead: false }, false],
  ])('%j unread: %s', (c, unread) => expect(isUnreadConversation(c, me)).toBe(unread));
  it('counts unread notifications plus unread conversations, without counting a conversation twice', () => {
    const notes = [
      { read: false, type: 'new_application' as const },
      { read: true, type: 'GIG_STARTED' as const },
      { read: false, type: 'new_message' as const, conversationId: 'c1' },
    ];
    const convs = [
      { id: 'c1', lastSenderId: 'other', lastMessageRead: false },
      { id: 'c2', lastSenderId: 'other', lastMessageRead: false },
      { id: 'c3', lastSenderId: me, lastMessageRead: false },
    ];
    expect(unreadBadgeCount(notes, convs, me)).toBe(3);
  });
});

describe('landing board filters', () => {
  const gigs = [
    {
      id: '1',
      title: 'Album cover',
      description: 'Painted cover',
      skills: 'Painting, Illustration',
      category: 'Visual Art',
      locationType: 'remote' as const,
      country: undefined,
    },
    {
      id: '2',
      title: 'Wedding photos',
      description: 'Full day',
      skills: 'Photography',
      category: 'Media',
      locationType: 'in-person' as const,
      country: 'FR' as const,
    },
    {
      id: '3',
      title: 'Dance video',
      description: 'Choreography for a music video',
      skills: 'Dance',
      category: 'Performing Arts',
      locationType: 'in-person' as const,
      country: 'NG' as const,
    },
    {
      id: '4',
      title: 'Podcast intro',
      description: 'Jingle',
      skills: 'Production',
      category: 'Music and Sound',
      locationType: 'hybrid' as const,
      country: 'GB' as const,
    },
  ];
  const ids = (f: Partial<typeof NO_FILTERS>) => filterGigs(gigs, { ...NO_FILTERS, ...f }).map((g) => g.id);
  it('no filter shows every gig', () => expect(ids({})).toEqual(['1', '2', '3', '4']));
  it('niches', () => expect(ids({ niches: ['Media', 'Visual Art'] })).toEqual(['1', '2']));
  it('location types (remote and in-person only)', () => {
    expect(ids({ locationTypes: ['remote'] })).toEqual(['1']);
    expect(ids({ locationTypes: ['in-person'] })).toEqual(['2', '3']);
  });
  it('countries apply only with in-person selected', () => {
    expect(ids({ locationTypes: ['in-person'], countries: ['NG'] })).toEqual(['3']);
    expect(ids({ locationTypes: ['remote'], countries: ['NG'] })).toEqual(['1']);
  });
  it('search matches every word in title, description, skills and category, combined with filters', () => {
    expect(ids({ search: 'video dance' })).toEqual(['3']);
    expect(ids({ search: 'PAINTING' })).toEqual(['1']);
    expect(ids({ search: 'music' })).toEqual(['3', '4']);
    expect(ids({ search: 'music', locationTypes: ['in-person'] })).toEqual(['3']);
  });
  it('the countries filter lists the countries present in the loaded gigs', () => {
    expect(countriesInGigs(gigs)).toEqual([
      { code: 'FR', name: 'France' },
      { code: 'NG', name: 'Nigeria' },
      { code: 'GB', name: 'United Kingdom' },
    ]);
  });
  it('empty-state texts are docs/product.md’s', () => {
    expect(EMPTY_STATES.allGigs).toBe('No gigs found matching your filters. More to come soon!');
    expect(EMPTY_STATES.appliedTo).toBe("You haven't applied to any gigs yet.");
  });
});

describe('defaultBasketView', () => {
  it('opens on the side that has something: the seller side only when the user posted nothing and applied somewhere', () => {
    expect(defaultBasketView(0, 2)).toBe('seller');
    expect(defaultBasketView(1, 2)).toBe('buyer');
    expect(defaultBasketView(0, 0)).toBe('buyer');
    expect(defaultBasketView(3, 0)).toBe('buyer');
  });
});

describe('basketViewFor', () => {
  it.each([
    ['FINAL_BUDGET_OFFER', 'seller'],
    ['new_offer', 'seller'],
    ['PAYMENT_CONFIRMED', 'seller'],
    ['GIG_COMPLETED', 'seller'],
    ['gig_completed', 'seller'],
    ['payment_needed', 'buyer'],
    ['GIG_STARTED', 'buyer'],
    ['gig_in_progress', 'buyer'],
    ['OFFER_REJECTED', 'buyer'],
  ])('%s opens the %s view', (type, view) => {
    expect(basketViewFor(type)).toBe(view);
  });
});

describe('[issue 15] delivery, cancellation and disputes in the display rules', () => {
  it('every status has a label of its own', () => {
    for (const status of APPLICATION_STATUSES) expect(statusLabel(status), status).not.toBe(status);
    expect(statusLabel('DELIVERED')).toBe('Work delivered');
    expect(statusLabel('DISPUTED')).toBe('In dispute');
    expect(statusLabel('SETTLEMENT_FAILED')).toBe('Payment refused: can be tried again');
  });

  it.each([
    ['DELIVERED', 'In Progress', ['All Gigs', 'In Progress']],
    ['CANCELLATION_REQUESTED', 'In Progress', ['All Gigs', 'In Progress']],
    ['DISPUTED', 'In Progress', ['All Gigs', 'In Progress']],
    ['SETTLING', 'In Progress', ['All Gigs', 'In Progress']],
    ['SETTLEMENT_FAILED', 'In Progress', ['All Gigs', 'In Progress']],
    ['SPLIT', 'Completed', ['All Gigs', 'Completed']],
    ['REFUNDED', 'Cancelled', ['All Gigs']],
    ['CANCELLED', 'Cancelled', ['All Gigs']],
    ['WITHDRAWN', 'Cancelled', ['All Gigs']],
    ['PENDING_PAYMENT', 'Pending', ['All Gigs', 'In Progress']],
  ] as const)('%s: the seller sees it under %s, the buyer’s gig under %j', (status, sellerTab, buyerTabs) => {
    expect(sellerTabOf({ status })).toBe(sellerTab);
    expect(buyerTabsOf({ status: 'active' }, [{ status }])).toEqual(buyerTabs);
  });

  it('the buyer’s work list keeps refunded work with the accepted offers', () => {
    expect(['DELIVERED', 'DISPUTED', 'REFUNDED', 'SPLIT'].every(isBuyerWorkItem)).toBe(true);
    expect(['PENDING', 'CANCELLED', 'WITHDRAWN'].some(isBuyerWorkItem)).toBe(false);
  });

  it.each([
    ['WORK_DELIVERED', 'buyer-1', '/basket?view=buyer'],
    ['CHANGES_REQUESTED', 'seller-1', '/basket?view=seller'],
    ['DISPUTE_OPENED', 'buyer-1', '/basket?view=buyer'],
    ['DISPUTE_OPENED', 'seller-1', '/basket?view=seller'],
    ['PAYMENT_RELEASED', 'seller-1', '/basket?view=seller'],
    ['REFUND_ISSUED', 'buyer-1', '/basket?view=buyer'],
    ['APPLICATION_WITHDRAWN', 'buyer-1', '/applications'],
  ])('clicking %s as %s opens %s (the recipient’s side)', (type, userId, target) => {
    expect(
      notificationTarget({
        type: type as never,
        userId,
        applicationId: 'gig-0001.seller-1',
        senderId: 'x-user',
        gigId: 'gig-0001',
      }),
    ).toBe(target);
  });

  it('"Releases automatically on 9 December", with the year when it is not this one', () => {
    const now = Date.UTC(2026, 10, 25, 12);
    expect(autoReleaseLabel(Date.UTC(2026, 11, 9, 12), now, 'UTC')).toBe('Releases automatically on 9 December');
    expect(autoReleaseLabel(Date.UTC(2027, 0, 2, 12), now, 'UTC')).toBe('Releases automatically on 2 January 2027');
  });
});
