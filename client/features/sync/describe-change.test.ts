import { describe, expect, it } from 'vitest';
import { describeChange } from './describe-change';

describe('what a change waiting to go out is', () => {
  it.each<[string, string, Record<string, unknown> | undefined, boolean, string]>([
    [
      'an application',
      'applications',
      { gigTitle: 'Album cover', status: 'PENDING' },
      false,
      'Application to “Album cover”',
    ],
    [
      'an offer',
      'applications',
      { gigTitle: 'Album cover', status: 'PENDING_ACCEPTANCE', applicantName: 'Ari' },
      false,
      'Offer to “Ari” for “Album cover”',
    ],
    [
      'an accepted offer',
      'applications',
      { gigTitle: 'Album cover', status: 'IN_PROGRESS' },
      false,
      'Starting work on “Album cover”',
    ],
    [
      'a declined offer',
      'applications',
      { gigTitle: 'Album cover', status: 'REJECTED' },
      false,
      'Declining the offer for “Album cover”',
    ],
    ['a gig', 'gigs', { title: 'Tour poster' }, false, 'Gig “Tour poster”'],
    ['a deleted gig', 'gigs', { title: 'Tour poster' }, true, 'Deleting the gig “Tour poster”'],
    ['a gig this device no longer holds', 'gigs', undefined, false, 'A gig'],
    ['a profile change', 'users', { name: 'Ari' }, false, 'Profile change'],
    ['a notification read', 'notifications', {}, false, 'Notification marked as read'],
  ])('%s', (_label, collection, doc, deleted, expected) => {
    expect(describeChange(collection, doc, deleted)).toBe(expected);
  });
});
