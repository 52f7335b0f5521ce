import { describe, expect, it } from 'vitest';
import { collectErrors, firstError, hasErrors } from './types';

describe('firstError', () => {
  it.each([
    ['no error', {}, undefined, undefined],
    ['the first key in insertion (docs/product.md) order', { b: 'B', a: 'A' }, undefined, 'B'],
    ['the first key in a given order', { b: 'B', a: 'A' }, ['a', 'b'], 'A'],
    ['skips empty messages', { a: '', b: 'B' }, undefined, 'B'],
  ])('%s', (_case, errors: Record<string, string>, order: string[] | undefined, expected) => {
    expect(firstError(errors, order)).toBe(expected);
  });

  it('hasErrors says whether any message is present', () => {
    expect(hasErrors({})).toBe(false);
    expect(hasErrors({ a: 'A' })).toBe(true);
  });
});

describe('collectErrors', () => {
  it('keeps the first failing check per field, in the order given', () => {
    const errors = collectErrors<'a' | 'b'>([
      ['b', undefined],
      ['a', 'first a'],
      ['a', 'second a'],
      ['b', false],
      ['b', 'b'],
    ]);
    expect(errors).toEqual({ a: 'first a', b: 'b' });
    expect(Object.keys(errors)).toEqual(['a', 'b']);
  });
});
