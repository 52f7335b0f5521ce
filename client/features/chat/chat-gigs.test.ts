import { describe, expect, it } from 'vitest';
import type { Application } from '../../../shared/schemas/application';
import { linkedGigs, subjectChanges, writingAbout, type LinkedGig } from './chat-gigs';

const app = (gigId: string, title: string, appliedAt: number, extra: Partial<Application> = {}) =>
  ({ gigId, gigTitle: title, appliedAt, status: 'PENDING', ...extra }) as Application;

const mural: LinkedGig = { gigId: 'gig-mural', title: 'Community mural', status: 'IN_PROGRESS', deleted: false };
const album: LinkedGig = { gigId: 'gig-album', title: 'Album cover illustration', status: 'PENDING', deleted: false };
const gone: LinkedGig = { gigId: 'gig-gone1', title: 'Old poster', status: 'PENDING', deleted: true };

describe('the gigs linking two users in a chat', () => {
  it('lists every linking gig, those that still exist first, newest application first', () => {
    const gigs = linkedGigs([
      app('gig-gone1', 'Old poster', 3, { gigDeleted: true }),
      app('gig-mural', 'Community mural', 1, { status: 'IN_PROGRESS' }),
      app('gig-album', 'Album cover illustration', 2),
    ]);
    expect(gigs).toEqual([album, mural, gone]);
  });

  it.each<[string, string | null, { gigId?: string }[], LinkedGig | undefined]>([
    ['the gig the user came from', 'gig-album', [{ gigId: 'gig-mural' }], album],
    [
      'the last gig talked about when the URL names none',
      null,
      [{ gigId: 'gig-album' }, { gigId: 'gig-mural' }, {}],
      mural,
    ],
    ['not a gig that does not link the two', 'gig-other', [{ gigId: 'gig-other' }], undefined],
    ['not a deleted gig', 'gig-gone1', [{ gigId: 'gig-gone1' }], undefined],
  ])('writes new messages from %s', (_case, requested, messages, expected) => {
    expect(writingAbout([album, mural, gone], requested, messages)).toEqual(expected);
  });

  it('writes from the only gig linking the two when nothing else says', () => {
    expect(writingAbout([mural, gone], null, [])).toEqual(mural);
  });

  it('marks a message where the subject changes, and only there', () => {
    const messages = [
      { id: 'a', gigId: 'gig-mural' },
      { id: 'b' },
      { id: 'c', gigId: 'gig-mural' },
      { id: 'd', gigId: 'gig-album' },
      { id: 'e', gigId: 'gig-nolink' },
      { id: 'f', gigId: 'gig-mural' },
    ];
    expect([...subjectChanges([album, mural], messages)].map(([id, g]) => [id, g.title])).toEqual([
      ['a', 'Community mural'],
      ['d', 'Album cover illustration'],
      ['f', 'Community mural'],
    ]);
  });
});
