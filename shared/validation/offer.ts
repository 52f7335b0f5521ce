import { parseMoneyInput } from './apply';

/** docs/product.md §5 Final budget offer, word for word. */
export const FINAL_BUDGETS_MISSING = 'Please set final budgets for all selected applicants';
/** Not in docs/product.md: moving forward with nobody selected would send no offer at all. */
export const NO_APPLICANT_SELECTED = 'Please select at least one applicant';

export type FinalBudgetsResult =
  | { ok: true; budgets: Record<string, number> }
  | { ok: false; error: typeof FINAL_BUDGETS_MISSING | typeof NO_APPLICANT_SELECTED };

/**
 * "Every selected applicant needs a final budget (a number, minimum 0)", "rounded to 2 decimals"
 * (docs/product.md §5, §9). Each budget is read with parseMoneyInput (half away from zero at the third
 * decimal) into integer minor units, keyed by application id. One missing, negative or
 * malformed budget refuses the whole batch with the docs/product.md alert: no offer goes out half-sent.
 *
 * An empty selection is refused with NO_APPLICANT_SELECTED rather than accepted as vacuously
 * complete, so the caller never reports "Offers sent successfully!" for zero offers.
 */
export function validateFinalBudgets(
  selected: readonly { applicationId: string; finalBudget: string }[],
): FinalBudgetsResult {
  if (selected.length === 0) return { ok: false, error: NO_APPLICANT_SELECTED };
  // Keyed by id: no inherited members to answer for an id that names one.
  const budgets: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const { applicationId, finalBudget } of selected) {
    const minor = parseMoneyInput(finalBudget);
    if (minor === null) return { ok: false, error: FINAL_BUDGETS_MISSING };
    budgets[applicationId] = minor;
  }
  return { ok: true, budgets };
}
