import { describe, expect, it } from 'vitest';
import { attemptOnce, attemptRecord, type AttemptPlan } from './attempts';
import { ProviderError } from './provider';

/** A provider that records what it is asked and answers from a script. */
function provider(options: { found?: boolean; findFails?: boolean; answer?: 'ok' | ProviderError } = {}) {
  const calls: string[] = [];
  const plan: AttemptPlan = {
    keyOf: (attempt) => `k${attempt}`,
    find: async () => {
      calls.push('find');
      if (options.findFails) throw new ProviderError('timeout', undefined, false);
      return options.found ? { id: 'found_1' } : undefined;
    },
    make: async (key) => {
      calls.push(`make ${key}`);
      const answer = options.answer ?? 'ok';
      if (answer !== 'ok') throw answer;
      return { id: `made_${key}` };
    },
    now: () => 7,
  };
  return { plan, calls };
}

const serverError = new ProviderError('api_error', 500, false);

describe('one move of money, whatever earlier tries got back', () => {
  it('a first try makes it under the first key, without asking', async () => {
    const { plan, calls } = provider();
    expect(await attemptOnce(undefined, plan)).toEqual({ ok: true, id: 'made_k0', attempt: 0, found: false });
    expect(calls).toEqual(['make k0']);
  });

  it('a refusal retires the key; a server error or no answer is kept to be reconciled', async () => {
    const refused = await attemptOnce(undefined, provider({ answer: new ProviderError('no', 400, true) }).plan);
    expect(refused).toMatchObject({ ok: false, definitive: true, attempt: 1, unanswered: null });
    const five = await attemptOnce(undefined, provider({ answer: serverError }).plan);
    expect(five).toMatchObject({ ok: false, definitive: false, attempt: 0, unanswered: { key: 'k0', status: 500 } });
    const none = await attemptOnce(undefined, provider({ answer: new ProviderError('reset', undefined, false) }).plan);
    expect(none).toMatchObject({ ok: false, attempt: 0, unanswered: { key: 'k0', status: null, at: 7 } });
  });

  it('after a server error: found at the provider is recorded as made, nothing sent again', async () => {
    const { plan, calls } = provider({ found: true });
    const last = { refusedAttempts: 0, unanswered: { key: 'k0', status: 500, at: 1 } };
    expect(await attemptOnce(last, plan)).toEqual({ ok: true, id: 'found_1', attempt: 0, found: true });
    expect(calls).toEqual(['find']);
  });

  it('after a server error: not found retires the key the provider keeps answering with it', async () => {
    const { plan, calls } = provider();
    const last = { refusedAttempts: 2, unanswered: { key: 'k2', status: 503, at: 1 } };
    expect(await attemptOnce(last, plan)).toEqual({ ok: true, id: 'made_k3', attempt: 3, found: false });
    expect(calls).toEqual(['find', 'make k3']);
  });

  it('after no answer at all: not found tries the same key again (the provider makes it or answers what it made)', async () => {
    const { plan, calls } = provider();
    const last = { refusedAttempts: 1, unanswered: { key: 'k1', status: null, at: 1 } };
    expect(await attemptOnce(last, plan)).toMatchObject({ ok: true, attempt: 1 });
    expect(calls).toEqual(['find', 'make k1']);
  });

  it('when the provider cannot be asked, nothing is sent and the next try asks again', async () => {
    const { plan, calls } = provider({ findFails: true });
    const last = { refusedAttempts: 0, unanswered: { key: 'k0', status: 500, at: 1 } };
    expect(await attemptOnce(last, plan)).toMatchObject({
      ok: false,
      definitive: false,
      attempt: 0,
      unanswered: last.unanswered,
    });
    expect(calls).toEqual(['find']);
  });

  it('the record keeps the latest attempt number another instance stored', () => {
    const later = { refusedAttempts: 3, unanswered: null };
    const outcome = {
      ok: false as const,
      definitive: false,
      error: 'x',
      attempt: 1,
      unanswered: { key: 'k1', status: 500, at: 1 },
    };
    expect(attemptRecord(later, outcome)).toEqual({ refusedAttempts: 3, unanswered: null });
    expect(attemptRecord(undefined, outcome)).toEqual({ refusedAttempts: 1, unanswered: outcome.unanswered });
    expect(attemptRecord(undefined, { ok: true, id: 'x', attempt: 2, found: true })).toEqual({
      refusedAttempts: 2,
      unanswered: null,
    });
  });
});
