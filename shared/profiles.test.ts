import { describe, expect, it } from 'vitest';
import { isUsernameShaped, newestFirst, parseReviewCursor, reviewCursor, usernameKey } from './profiles';
import { profilePath } from './routes';

describe('usernames in addresses', () => {
  it('[U1] one member per name whatever its case or surrounding spaces', () => {
    expect(usernameKey('  Ada.Paints ')).toBe('ada.paints');
    expect(usernameKey('ADA')).toBe(usernameKey('ada'));
  });

  it('[U2] every character that means something in a path is escaped', () => {
    expect(profilePath('ada paints/2?x=1#top')).toBe('/u/ada%20paints%2F2%3Fx%3D1%23top');
    expect(decodeURIComponent(profilePath('zoë & co').slice(3))).toBe('zoë & co');
  });

  it('[U3] a segment that cannot be a username is not looked up', () => {
    expect(isUsernameShaped('ada')).toBe(true);
    expect(isUsernameShaped(' ada')).toBe(false);
    expect(isUsernameShaped('')).toBe(false);
    expect(isUsernameShaped('x'.repeat(65))).toBe(false);
  });
});

describe('review pages', () => {
  it('[P1] newest first, ties by id, and a cursor that round-trips', () => {
    const reviews = [
      { id: 'aaaaaa1', publishedAt: 5 },
      { id: 'bbbbbb1', publishedAt: 9 },
      { id: 'cccccc1', publishedAt: 5 },
    ];
    expect([...reviews].sort(newestFirst).map((r) => r.id)).toEqual(['bbbbbb1', 'cccccc1', 'aaaaaa1']);
    expect(parseReviewCursor(reviewCursor(reviews[0]!))).toEqual(reviews[0]);
    for (const bad of ['x', '5_', '_aaaaaa1', '5_toString', '5_a_b', 5, undefined, ['5_aaaaaa1']])
      expect(parseReviewCursor(bad)).toBeUndefined();
  });
});
