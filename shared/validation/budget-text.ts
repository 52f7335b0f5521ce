import { decimalToMinor } from './decimal';

/**
 * A gig's budget is free text (docs/product.md §3: "a range such as 500-1000, or a single amount"). It is
 * stored as typed, but it must read as one of those two shapes so the board can show and sort
 * it. Accepted: an amount with up to two decimals and optional thousands commas ("500",
 * "500.50", "1,000"), or two of them joined by a hyphen or an en dash with optional spaces
 * ("500-1000", "500 – 1,000"). Not accepted: currency signs or words ("$500", "500 CAD"; the
 * currency is its own field), a reversed range, a budget of 0 (an unpaid gig is passion driven),
 * more than 1,000,000,000.
 */
export const BUDGET_TEXT_MESSAGES = {
  format: 'Budget must be an amount such as 500 or a range such as 500-1000',
  reversed: 'Budget range must go from the lower amount to the higher one, such as 500-1000',
  zero: 'Budget must be more than 0. Mark the gig as passion driven if it is unpaid',
  tooLarge: 'Budget cannot be more than 1,000,000,000', // MAX_MONEY_MINOR in major units
} as const;

export type BudgetRange = { min: number; max: number };

const AMOUNT = String.raw`(\d{1,3}(?:,\d{3})+|\d+)(\.\d{1,2})?`;
const BUDGET_TEXT = new RegExp(String.raw`^${AMOUNT}(?:\s*[-–]\s*${AMOUNT})?$`);
const MAX_TEXT = 50; // LIMITS.budgetTextMax; longer text cannot be a sensible budget anyway

type Parsed = { ok: true; range: BudgetRange } | { ok: false; error: string };

function amountToMinor(whole: string | undefined, fraction: string | undefined): number | undefined {
  return decimalToMinor((whole ?? '').replace(/,/g, '') + (fraction ?? ''), 2);
}

function parse(text: string): Parsed {
  const value = text.trim();
  const match = value.length <= MAX_TEXT ? BUDGET_TEXT.exec(value) : null;
  if (!match) return { ok: false, error: BUDGET_TEXT_MESSAGES.format };
  const min = amountToMinor(match[1], match[2]);
  const max = match[3] === undefined ? min : amountToMinor(match[3], match[4]);
  if (min === undefined || max === undefined) return { ok: false, error: BUDGET_TEXT_MESSAGES.tooLarge };
  if (min > max) return { ok: false, error: BUDGET_TEXT_MESSAGES.reversed };
  if (max === 0) return { ok: false, error: BUDGET_TEXT_MESSAGES.zero };
  return { ok: true, range: { min, max } };
}

/** The budget text as a range in minor units (a single amount gives min === max), or undefined. */
export function parseBudgetText(budget: string): BudgetRange | undefined {
  const parsed = parse(budget);
  return parsed.ok ? parsed.range : undefined;
}

/** Why the budget text is refused, or undefined when parseBudgetText accepts it. */
export function budgetTextError(budget: string): string | undefined {
  const parsed = parse(budget);
  return parsed.ok ? undefined : parsed.error;
}
