import { countryByCode } from '../../shared/constants';
import { payoutsUnavailable } from '../../shared/payment-messages';

/**
 * Which Stripe service agreement a payout account gets, from the platform's country and the
 * freelancer's (decision 007). The rules, kept conservative:
 *
 * - Stripe offers self-serve cross-border payouts only to platforms in the US, the UK, the EEA,
 *   Canada and Switzerland, and only to connected accounts in those same regions. Of the app's
 *   countries that makes US, GB, CA and FR possible platforms and possible payout countries;
 *   Nigeria is neither (payouts there need Stripe's sales team or another product).
 * - A connected account in the platform's own country gets the full service agreement (Stripe's
 *   default): a recipient account cannot be in the platform's country.
 * - An account in another supported country gets the recipient service agreement, which is what
 *   cross-border payouts require; with it the account can take transfers but not card payments,
 *   which is all a freelancer here needs (the platform charges the buyer).
 */
export const PLATFORM_COUNTRIES = ['US', 'GB', 'CA', 'FR'] as const;
export type PlatformCountry = (typeof PLATFORM_COUNTRIES)[number];

const PAYOUT_COUNTRIES: ReadonlySet<string> = new Set(PLATFORM_COUNTRIES);

export type ServiceAgreement = 'full' | 'recipient';
export type PayoutTerms = { ok: true; serviceAgreement: ServiceAgreement } | { ok: false; error: string };

/** `freelancer` is the profile's country code; without one Stripe opens the account in the platform's country. */
export function payoutTerms(platform: PlatformCountry, freelancer: string | undefined): PayoutTerms {
  if (!freelancer || freelancer === platform) return { ok: true, serviceAgreement: 'full' };
  if (!PAYOUT_COUNTRIES.has(freelancer))
    return { ok: false, error: payoutsUnavailable(countryByCode(freelancer)?.name ?? freelancer) };
  return { ok: true, serviceAgreement: 'recipient' };
}
