import { describe, expect, it } from 'vitest';
import { HttpError } from '../http/errors';
import { StoreUnavailableError } from '../store/store';
import { viaProvider, type Payments } from './payments';
import { ProviderError } from './provider';

describe('a provider call that fails', () => {
  const logged: unknown[] = [];
  const p = { ctx: { log: (_msg: string, err: unknown) => logged.push(err) } } as unknown as Payments;

  it('becomes a 502 with the message the user should see, its cause logged', async () => {
    const cause = new ProviderError('card_declined', 402, true);
    const failed = viaProvider(p, 'Payment could not be started', () => Promise.reject(cause));
    await expect(failed).rejects.toMatchObject({ status: 502, message: 'Payment could not be started' });
    expect(logged.at(-1)).toContain('card_declined');
  });

  it('stays "try again" (StoreUnavailableError, 503) when the store under the simulated provider is busy', async () => {
    const failed = viaProvider(p, 'Payment could not be started', () => Promise.reject(new StoreUnavailableError()));
    await expect(failed).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(failed).rejects.not.toBeInstanceOf(HttpError);
  });
});
