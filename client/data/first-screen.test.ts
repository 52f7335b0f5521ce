import { describe, expect, it } from 'vitest';
import { collectionsForScreen } from './first-screen';

describe("the opened screen's collections, pulled first on a new device", () => {
  it.each([
    ['/notifications', ['notifications']],
    // Screens that act on collections they do not show (Converse, Apply, reviews) favour none.
    ['/landing', []],
    ['/basket', []],
    ['/applications', []],
    ['/gig/g1', []],
    ['/exchange/u1', []],
    ['/notifications/extra', []],
  ])('%s', (path, names) => {
    expect(collectionsForScreen(path)).toEqual(names);
  });
});
