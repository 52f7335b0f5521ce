import { describe, expect, it } from 'vitest';
import { withTimeout } from './with-timeout';

describe('withTimeout', () => {
  it("rejects with onTimeout's error when the promise takes longer, calling it once", async () => {
    let calls = 0;
    const err = await withTimeout(new Promise(() => {}), 30, () => {
      calls++;
      return new Error('late');
    }).catch((e: unknown) => e);
    expect((err as Error).message).toBe('late');
    expect(calls).toBe(1);
  });

  it('settles as the promise does when it comes first, and never calls onTimeout afterwards', async () => {
    let calls = 0;
    const late = () => {
      calls++;
      return new Error('late');
    };
    await expect(withTimeout(Promise.resolve(7), 30, late)).resolves.toBe(7);
    await expect(withTimeout(Promise.reject(new Error('own')), 30, late)).rejects.toThrow('own');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(calls).toBe(0);
  });
});
