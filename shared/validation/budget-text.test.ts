import { describe, expect, it } from 'vitest';
import { BUDGET_TEXT_MESSAGES as B } from './budget-text';
import { budgetTextError, EMPTY_GIG_FORM, parseBudgetText, validateGigForm } from './gig';

describe("docs/product.md §3 Gig 'budget (text: a range such as 500-1000, or a single amount)'", () => {
  it.each<[string, { min: number; max: number }]>([
    ['500', { min: 500_00, max: 500_00 }],
    ['500.50', { min: 500_50, max: 500_50 }],
    ['500.5', { min: 500_50, max: 500_50 }],
    ['500-1000', { min: 500_00, max: 1000_00 }],
    ['500 - 1000', { min: 500_00, max: 1000_00 }],
    ['500–1000', { min: 500_00, max: 1000_00 }],
    ['1,000-2,500.75', { min: 1000_00, max: 2500_75 }],
    ['0-500', { min: 0, max: 500_00 }],
    ['750-750', { min: 750_00, max: 750_00 }],
    [' 42 ', { min: 42_00, max: 42_00 }],
    ['1000000000', { min: 1_000_000_000_00, max: 1_000_000_000_00 }],
  ])('parseBudgetText(%j) → %j (minor units)', (text, range) => {
    expect(parseBudgetText(text)).toEqual(range);
    expect(budgetTextError(text)).toBeUndefined();
  });

  it.each<[string, string]>([
    ['abc', B.format],
    ['', B.format],
    ['$500', B.format],
    ['500 CAD', B.format],
    ['-500', B.format],
    ['500-', B.format],
    ['500.123', B.format],
    ['1e3', B.format],
    ['1,00', B.format],
    ['500-1000-2000', B.format],
    ['1000-500', B.reversed],
    ['0', B.zero],
    ['0-0', B.zero],
    ['1000000000.01', B.tooLarge],
    ['5'.repeat(51), B.format],
  ])('parseBudgetText(%j) → undefined, with %j', (text, message) => {
    expect(parseBudgetText(text)).toBeUndefined();
    expect(budgetTextError(text)).toBe(message);
  });

  it('the create-gig form refuses a nonsense budget with that message', () => {
    const values = {
      ...EMPTY_GIG_FORM,
      title: 'T',
      description: 'D',
      category: 'Media',
      locationType: 'remote' as const,
      skills: 'x',
      projectDeadline: '2030-01-01',
    };
    expect(validateGigForm({ ...values, budget: 'abc' }, { today: '2026-01-01', variant: 'page' })).toEqual({
      budget: B.format,
    });
    expect(validateGigForm({ ...values, budget: '1000-500' }, { today: '2026-01-01', variant: 'modal' })).toEqual({
      budget: B.reversed,
    });
  });
});
