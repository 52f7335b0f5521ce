import { describe, expect, it } from 'vitest';
import { FINAL_BUDGETS_MISSING, NO_APPLICANT_SELECTED, validateFinalBudgets } from './offer';

const sel = (...budgets: string[]) => budgets.map((finalBudget, i) => ({ applicationId: `app-${i + 1}`, finalBudget }));

describe("docs/product.md §5 Final budget offer: 'Every selected applicant needs a final budget (a number, minimum 0).'", () => {
  it.each<[string, ReturnType<typeof sel>, Record<string, number>]>([
    ['one applicant', sel('500'), { 'app-1': 500_00 }],
    ['several applicants', sel('500', '750.25'), { 'app-1': 500_00, 'app-2': 750_25 }],
    ["'minimum 0': 0 is a budget", sel('0'), { 'app-1': 0 }],
    ["§9 'Final budget is rounded to 2 decimals'", sel('10.005', '10.004'), { 'app-1': 10_01, 'app-2': 10_00 }],
    ['surrounding spaces are ignored', sel(' 20 '), { 'app-1': 20_00 }],
  ])('accepts %s, in minor units', (_case, selected, budgets) => {
    expect(validateFinalBudgets(selected)).toEqual({ ok: true, budgets });
  });

  it.each<[string, ReturnType<typeof sel>]>([
    ['an empty budget', sel('')],
    ['one empty budget among others', sel('500', '')],
    ['a whitespace-only budget', sel('  ')],
    ["below 'minimum 0'", sel('-1')],
    ['not a number', sel('lots')],
    ['[decision] above 1,000,000,000', sel('1000000001')],
  ])("refuses %s: 'Please set final budgets for all selected applicants'", (_case, selected) => {
    expect(validateFinalBudgets(selected)).toEqual({
      ok: false,
      error: 'Please set final budgets for all selected applicants',
    });
  });

  it('the alert text is docs/product.md word for word', () => {
    expect(FINAL_BUDGETS_MISSING).toBe('Please set final budgets for all selected applicants');
  });

  it('[decision] an empty selection is refused, so no "sent" message follows zero offers', () => {
    expect(validateFinalBudgets([])).toEqual({ ok: false, error: NO_APPLICANT_SELECTED });
    expect(NO_APPLICANT_SELECTED).toBe('Please select at least one applicant');
  });
});
