import { describe, expect, it } from 'vitest';
import {
  cancellationNoteError,
  changeRequestError,
  disputeReasonError,
  splitAmountError,
  submissionErrors,
  WORK_MESSAGES,
} from './work';

describe('[issue 15] what users type about delivered, questioned and disputed work', () => {
  it('a submission needs a note of at most 2,000 characters and takes an optional http(s) link', () => {
    expect(submissionErrors({ note: 'Done', link: '' })).toEqual({});
    expect(submissionErrors({ note: 'Done', link: 'HTTPS://files.example/a' })).toEqual({});
    expect(submissionErrors({ note: '', link: 'data:text/html,x' })).toEqual({
      note: WORK_MESSAGES.submissionNoteRequired,
      link: 'Please enter a valid URL',
    });
    expect(submissionErrors({ note: 'y'.repeat(2001) }).note).toBe(WORK_MESSAGES.noteTooLong);
    expect(submissionErrors({ note: 'ok', link: `https://x.example/${'a'.repeat(2048)}` }).link).toBe(
      'Link must be at most 2048 characters',
    );
  });

  it('change requests and dispute reasons are required; a cancellation note is optional', () => {
    expect(changeRequestError('  ')).toBe(WORK_MESSAGES.changesNoteRequired);
    expect(changeRequestError('Brighter')).toBeUndefined();
    expect(disputeReasonError('')).toBe(WORK_MESSAGES.disputeReasonRequired);
    expect(disputeReasonError('z'.repeat(2001))).toBe(WORK_MESSAGES.reasonTooLong);
    expect(cancellationNoteError(undefined)).toBeUndefined();
    expect(cancellationNoteError('n'.repeat(2001))).toBe(WORK_MESSAGES.noteTooLong);
  });

  it('an operator’s split lies strictly between nothing and the whole final budget', () => {
    const message = 'Enter the freelancer’s part as an amount between C$0.00 and C$450.00';
    for (const text of ['0', '450', '450.00', '500', '-1', 'abc', ''])
      expect(splitAmountError(text, 45000, 'CAD')).toBe(message);
    expect(splitAmountError('200', 45000, 'CAD')).toBeUndefined();
    expect(splitAmountError('449.99', 45000, 'CAD')).toBeUndefined();
  });
});
