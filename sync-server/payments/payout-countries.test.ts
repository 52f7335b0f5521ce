import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES } from '../../shared/constants';
import { PLATFORM_COUNTRIES, payoutTerms } from './payout-countries';

describe('payout terms by platform and freelancer country (decision 007)', () => {
  it.each(PLATFORM_COUNTRIES)(
    'platform %s: full agreement at home and without a country, recipient elsewhere it can pay, refused in Nigeria',
    (platform) => {
      expect(payoutTerms(platform, platform)).toEqual({ ok: true, serviceAgreement: 'full' });
      expect(payoutTerms(platform, undefined)).toEqual({ ok: true, serviceAgreement: 'full' });
      for (const other of PLATFORM_COUNTRIES.filter((c) => c !== platform)) {
        expect(payoutTerms(platform, other), `${platform} → ${other}`).toEqual({
          ok: true,
          serviceAgreement: 'recipient',
        });
      }
      expect(payoutTerms(platform, 'NG')).toEqual({
        ok: false,
        error:
          'Payouts to accounts in Nigeria are not available yet: our payment provider cannot send payouts there from this platform. Please contact support.',
      });
    },
  );

  it('never makes a recipient account in the platform’s own country', () => {
    for (const platform of PLATFORM_COUNTRIES) {
      for (const freelancer of COUNTRY_CODES) {
        const terms = payoutTerms(platform, freelancer);
        if (terms.ok && terms.serviceAgreement === 'recipient') expect(freelancer).not.toBe(platform);
      }
    }
  });

  it('an unknown country code is refused, named by its code', () => {
    expect(payoutTerms('CA', 'ZZ')).toMatchObject({
      ok: false,
      error: expect.stringContaining('in ZZ are not available'),
    });
  });
});
