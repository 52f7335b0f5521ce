import { describe, expect, it } from 'vitest';
import { collectionsForScreen } from './first-screen';

describe("the opened screen's collections, pulled first on a new device", () => {
  it.each([
    ['/notifications', ['notifications']],
    // The cards and their applicants' names and reputation (Converse waits for the conversations).
    ['/applications', ['applications', 'users']],
    // Screens that act on collections they do not show without waiting (Apply, reviews) favour none.
    ['/landing', []],
    ['/basket', []],
    ['/gig/g1', []],
    ['/exchange/u1', []],
    ['/notifications/extra', []],
  ])('%s', (path, names) => {
    expect(collectionsForScreen(path)).toEqual(names);
  });
});
