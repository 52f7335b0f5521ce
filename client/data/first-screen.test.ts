import { describe, expect, it } from 'vitest';
import { collectionsForScreen } from './first-screen';

describe("the opened screen's collections, pulled first on a new device", () => {
  it.each([
    ['/notifications', ['notifications']],
    // The cards and their applicants' names and reputation (Converse waits for the conversations).
    ['/applications', ['applications', 'users']],
    // My Gigs: everything it reads, all but the conversations.
    ['/basket', ['users', 'gigs', 'applications', 'notifications', 'reviews']],
    // A screen that acts on collections it does not show without waiting (Apply) favours none.
    ['/landing', []],
    ['/gig/g1', []],
    ['/exchange/u1', []],
    ['/notifications/extra', []],
  ])('%s', (path, names) => {
    expect(collectionsForScreen(path)).toEqual(names);
  });
});
