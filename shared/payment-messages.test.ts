import { describe, expect, it } from 'vitest';
import { completionError, paymentSuccessError } from './payment-messages';

describe('payment error texts shown to users (docs/product.md §8)', () => {
  it.each([
    'Missing required payment information',
    'Application not found',
    'Invalid application status',
    'Failed to update payment status. Please contact support.',
  ])('the success page shows the server text %s as it is', (text) => expect(paymentSuccessError(text)).toBe(text));
  it.each([undefined, '', 'socket hang up', 'Request failed (500)'])(
    'anything else on the success page reads as the support text (%s)',
    (text) => {
      expect(paymentSuccessError(text)).toBe('Failed to update payment status. Please contact support.');
    },
  );
  it.each([
    'Failed to complete gig',
    'Payment transfer was not successful',
    'Error marking gig as complete. Please try again.',
  ])('completion shows %s as it is', (text) => {
    expect(completionError(text)).toBe(text);
  });
  it('any other completion failure reads as the retry text', () => {
    expect(completionError('Only the buyer of this gig can mark the work complete.')).toBe(
      'Error marking gig as complete. Please try again.',
    );
    expect(completionError(undefined)).toBe('Error marking gig as complete. Please try again.');
  });
});
