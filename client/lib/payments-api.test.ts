import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api';
import { completeGig } from './payments-api';

/** Mark as Complete / "Approve and pay" as the screens read the server's answers (README's API table). */

const answer = (status: number, body: unknown) =>
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })),
  );
const input = { gigId: 'g', applicationId: 'g.a', userId: 'b' };

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('completeGig', () => {
  it('a payout the provider has not answered yet (202, pending) is being settled, not a failure', async () => {
    answer(202, { success: true, payout: 'pending', amount: 40500 });
    await expect(completeGig(input)).resolves.toEqual({ success: true, payout: 'pending', amount: 40500 });
  });

  it('a payout sent or held is a success; a refusal keeps its failure shape and text', async () => {
    answer(200, { success: true, payout: 'sent', amount: 40500 });
    await expect(completeGig(input)).resolves.toMatchObject({ payout: 'sent' });
    answer(502, { success: false, error: 'Payment transfer was not successful' });
    const refused = completeGig(input);
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toThrow('Payment transfer was not successful');
  });
});
