/**
 * Business constants of docs/product.md §3 and §9. Every other module reads them from here.
 */

export const COUNTRIES = [
  { code: 'US', name: 'United States', currency: 'USD', symbol: '$' },
  { code: 'GB', name: 'United Kingdom', currency: 'GBP', symbol: '£' },
  { code: 'CA', name: 'Canada', currency: 'CAD', symbol: 'C$' },
  { code: 'FR', name: 'France', currency: 'EUR', symbol: '€' },
  { code: 'NG', name: 'Nigeria', currency: 'NGN', symbol: '₦' },
] as const;

export type Country = (typeof COUNTRIES)[number];
export type CountryCode = Country['code'];
export type CurrencyCode = Country['currency'];

export const COUNTRY_CODES = COUNTRIES.map((c) => c.code) as [CountryCode, ...CountryCode[]];
export const CURRENCY_CODES = COUNTRIES.map((c) => c.currency) as [CurrencyCode, ...CurrencyCode[]];
export const DEFAULT_CURRENCY: CurrencyCode = 'CAD';

export function countryByCode(code: string): Country | undefined {
  return COUNTRIES.find((c) => c.code === code);
}

/** Each list ends with Other (docs/product.md §3). */
export const NICHES = [
  {
    id: 'visual_art',
    name: 'Visual Art',
    subcategories: ['Illustration', 'Painting', 'Digital Art', 'Drawing', 'Graphic Design', 'Web Design', 'Other'],
  },
  { id: 'media', name: 'Media', subcategories: ['Photography', 'Videography', 'Editing', 'Animation', 'Other'] },
  {
    id: 'writing',
    name: 'Writing',
    subcategories: ['Fiction Writing', 'Poetry', 'Screenwriting', 'Copywriting', 'Other'],
  },
  {
    id: 'music_and_sound',
    name: 'Music and Sound',
    subcategories: ['Production', 'Sound Design', 'Engineering', 'Singing', 'DJing', 'Other'],
  },
  { id: 'performing_arts', name: 'Performing Arts', subcategories: ['Acting', 'Dance', 'Other'] },
  { id: 'fashion', name: 'Fashion', subcategories: ['Design', 'Styling', 'Brand Ownership', 'Other'] },
  { id: 'craft_diy', name: 'Crafts', subcategories: ['Jewelry Making', 'Candle Making', 'Woodworking', 'Other'] },
  {
    id: 'creative_business_owner',
    name: 'Creative Business Owner',
    subcategories: ['Social Media Creation', 'Podcasting', 'Influencer Marketing', 'Brand Ownership', 'Other'],
  },
] as const;

export type Niche = (typeof NICHES)[number];
export type NicheId = Niche['id'];
export const NICHE_IDS = NICHES.map((n) => n.id) as [NicheId, ...NicheId[]];
/** A gig's category is the niche display name (docs/product.md §3 Gig). */
export const NICHE_NAMES = NICHES.map((n) => n.name) as [string, ...string[]];

export function nicheById(id: string): Niche | undefined {
  return NICHES.find((n) => n.id === id);
}

export function nicheByName(name: string): Niche | undefined {
  return NICHES.find((n) => n.name === name);
}

export const LOCATION_TYPES = ['remote', 'in-person', 'hybrid'] as const;
export type LocationType = (typeof LOCATION_TYPES)[number];
/** The landing filter offers only these two (docs/product.md §9). */
export const FILTER_LOCATION_TYPES = ['remote', 'in-person'] as const;

export const APPLICATION_STATUSES = [
  'PENDING',
  'PENDING_ACCEPTANCE',
  'PENDING_PAYMENT',
  'IN_PROGRESS',
  'COMPLETED',
  'REJECTED',
  /** The gig was filled before this applicant got an offer (docs/decisions/014-openings-and-filled-gigs.md). */
  'CLOSED',
  // Delivery, cancellation, refunds and disputes (docs/decisions/031-money-nobody-strands.md).
  /** The freelancer submitted work; the buyer approves, asks for changes, or it is released automatically. */
  'DELIVERED',
  /** The buyer asked to cancel paid work; the freelancer accepts (full refund) or refuses. */
  'CANCELLATION_REQUESTED',
  /** A dispute is open: automatic release is frozen until an operator resolves it. */
  'DISPUTED',
  /** Money is moving as decided (a release, a refund or a split): the provider's answer is awaited. */
  'SETTLING',
  /** The payment provider refused to move the money as decided: nothing moved, it can be tried again. */
  'SETTLEMENT_FAILED',
  /** Refunded to the buyer in full (fee included); final. */
  'REFUNDED',
  /** Split by an operator between the buyer and the freelancer; final. */
  'SPLIT',
  /** The freelancer withdrew their application; final. */
  'WITHDRAWN',
  /** An accepted offer cancelled before any payment; final. */
  'CANCELLED',
] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];
/** SELECTED is an alias of PENDING_ACCEPTANCE, accepted on input only (docs/product.md §10). */
export const STATUS_ALIASES: Record<string, ApplicationStatus> = { SELECTED: 'PENDING_ACCEPTANCE' };

/**
 * An accepted offer: both sides agreed to work together. From here on the gig is taken, and the
 * two users see each other's contact email (decision 003).
 */
export const ACCEPTED_OFFER_STATUSES: readonly ApplicationStatus[] = [
  'PENDING_PAYMENT',
  'IN_PROGRESS',
  'COMPLETED',
  // Work delivered, questioned or being paid out or split still holds its opening (decision 031).
  'DELIVERED',
  'CANCELLATION_REQUESTED',
  'DISPUTED',
  'SETTLING',
  'SETTLEMENT_FAILED',
  'SPLIT',
];

export function isAcceptedOffer(status: unknown): boolean {
  return (ACCEPTED_OFFER_STATUSES as readonly unknown[]).includes(status);
}

/**
 * Work that ended with the freelancer paid: in full (COMPLETED) or in part by an operator's split
 * (SPLIT). What a review of finished work may rest on (decision 031).
 */
export const WORK_FINISHED_STATUSES: readonly ApplicationStatus[] = ['COMPLETED', 'SPLIT'];

export function isWorkFinished(status: unknown): boolean {
  return (WORK_FINISHED_STATUSES as readonly unknown[]).includes(status);
}

/** Paid work that is under way: the buyer's money is held by the platform (decision 031). */
export const MONEY_HELD_STATUSES: readonly ApplicationStatus[] = [
  'IN_PROGRESS',
  'DELIVERED',
  'CANCELLATION_REQUESTED',
  'DISPUTED',
  'SETTLING',
  'SETTLEMENT_FAILED',
];

export const GIG_STATUS_ACTIVE = 'active';
export const WAITLIST_STATUS_PENDING = 'pending';

/** Every notification type seen (docs/product.md §9); each one gets an icon. */
export const NOTIFICATION_TYPES = [
  'new_application',
  'new_conversation',
  'new_message',
  'message',
  'new_offer',
  'payment_needed',
  'gig_completed',
  'gig_in_progress',
  'application_status',
  'FINAL_BUDGET_OFFER',
  'GIG_STARTED',
  'OFFER_REJECTED',
  'GIG_COMPLETED',
  'PAYMENT_CONFIRMED',
  // Delivery, cancellation, refunds and disputes (decision 031).
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
  // Reviews (shared/reviews.ts): at completion, 3 days before the window closes, when the other
  // side has written theirs, and when a review of you is published.
  'REVIEW_REQUESTED',
  'REVIEW_REMINDER',
  'REVIEW_RECEIVED',
  'REVIEW_PUBLISHED',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const LIMITS = {
  titleMax: 100,
  descriptionMax: 500,
  usernameMin: 3,
  passwordMin: 8,
  /** Not in docs/product.md: keeps chat messages and free text bounded (issue 6 suggests 5,000). */
  messageMax: 5000,
  bioMax: 1000,
  nameMax: 100,
  emailMax: 254,
  cityMax: 100,
  skillsMax: 500,
  budgetTextMax: 50,
  urlMax: 2048,
  /** A delivery note, a change request, a cancellation note or a dispute reason (issue 15). */
  workNoteMax: 2000,
  /** Submissions kept on one application: bounds the document (each note ≤ 2,000 characters). */
  submissionsMax: 20,
} as const;

/** Days delivered work waits for the buyer's answer before it is released automatically (AUTO_RELEASE_DAYS). */
export const DEFAULT_AUTO_RELEASE_DAYS = 14;
export const DAY_MS = 24 * 60 * 60 * 1000;

export const FEES = {
  /** Retained by the platform on completion; the freelancer receives the rest (90%). */
  platformFeeRate: 0.1,
  /** Added on top of the base price when the buyer pays. */
  buyerServiceFeeRate: 0.03,
} as const;

export const REDIRECT_DELAYS_MS = {
  afterSignup: 1500,
  afterLogin: 1500,
  afterSetup: 1500,
  afterPaymentSuccess: 5000,
} as const;

export const NEW_APPLICATION_WINDOW_MS = 24 * 60 * 60 * 1000;

export const BREAKPOINTS = {
  /** The waitlist demo video switches layout here. */
  videoMobilePx: 768,
  /** The waitlist navigation switches layout here. */
  waitlistNavPx: 770,
} as const;
