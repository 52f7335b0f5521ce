import { LIMITS } from '../constants';
import { formatMoney } from '../money';
import { linkFormatError } from './portfolio';
import { parseMoneyInput } from './apply';

/**
 * What a user types while work is delivered, questioned or disputed (issue 15, docs/product.md
 * §5.12): the same rules on the device's forms and in the server's machine. Texts are trimmed
 * before they are judged; a note is at most 2,000 characters.
 */
export const WORK_MESSAGES = {
  submissionNoteRequired: 'Please describe the work you are submitting',
  changesNoteRequired: 'Please say what needs to change',
  disputeReasonRequired: 'Please give a reason for the dispute',
  noteTooLong: `Note must be at most ${LIMITS.workNoteMax} characters`,
  reasonTooLong: `Reason must be at most ${LIMITS.workNoteMax} characters`,
  tooManySubmissions: `Work can be submitted at most ${LIMITS.submissionsMax} times`,
} as const;

/** A submission's note (required) and link (optional, http or https). */
export function submissionErrors(input: { note: string; link?: string }): { note?: string; link?: string } {
  const note = input.note.trim();
  const errors: { note?: string; link?: string } = {};
  if (!note) errors.note = WORK_MESSAGES.submissionNoteRequired;
  else if (note.length > LIMITS.workNoteMax) errors.note = WORK_MESSAGES.noteTooLong;
  const link = linkFormatError(input.link ?? '');
  if (link) errors.link = link;
  return errors;
}

/** The buyer's change request: what needs to change. */
export function changeRequestError(note: string): string | undefined {
  const text = note.trim();
  if (!text) return WORK_MESSAGES.changesNoteRequired;
  return text.length > LIMITS.workNoteMax ? WORK_MESSAGES.noteTooLong : undefined;
}

/** A dispute's reason, required. */
export function disputeReasonError(reason: string): string | undefined {
  const text = reason.trim();
  if (!text) return WORK_MESSAGES.disputeReasonRequired;
  return text.length > LIMITS.workNoteMax ? WORK_MESSAGES.reasonTooLong : undefined;
}

/** The buyer's optional note with a cancellation request. */
export function cancellationNoteError(note: string | undefined): string | undefined {
  return (note ?? '').trim().length > LIMITS.workNoteMax ? WORK_MESSAGES.noteTooLong : undefined;
}

/**
 * An operator's split: the freelancer's part of the final budget, typed as an amount. A split gives
 * each side something, so it lies strictly between nothing and the whole budget (those two are
 * "refund in full" and "release in full").
 */
export function splitAmountError(text: string, base: number, currency: string): string | undefined {
  const minor = parseMoneyInput(text);
  if (minor === null || minor <= 0 || minor >= base)
    return `Enter the freelancer’s part as an amount between ${formatMoney(0, currency)} and ${formatMoney(base, currency)}`;
  return undefined;
}
