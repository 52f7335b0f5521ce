import { describe, expect, it } from 'vitest';
import { contentOf, formFromGig, gigContent, sameGigContent } from './gig-content';
import type { Gig } from './schemas/gig';
import { EMPTY_GIG_FORM, type GigFormValues } from './validation/gig';

const form = (change: Partial<GigFormValues>): GigFormValues => ({
  ...EMPTY_GIG_FORM,
  title: 'Album cover',
  description: 'Paint an album cover.',
  category: 'Visual Art',
  skills: 'Painting, Lettering',
  budget: '300-500',
  ...change,
});

describe('gig content from the form', () => {
  it('a remote gig is in CAD, keeps its deadline and never a date, country or city', () => {
    const c = gigContent(
      form({ locationType: 'remote', currency: 'NGN', projectDeadline: '2027-01-10', projectDate: '2027-01-12' }),
    );
    expect(c.currency).toBe('CAD');
    expect(c.projectDeadline).toBe('2027-01-10');
    expect(c).not.toHaveProperty('projectDate');
    expect(c).not.toHaveProperty('country');
  });

  it('an in-person gig takes its country’s currency and its date, not a deadline', () => {
    const c = gigContent(
      form({
        locationType: 'in-person',
        country: 'NG',
        city: 'Lagos',
        currency: 'CAD',
        projectDeadline: '2027-01-10',
        projectDate: '2027-01-12',
      }),
    );
    expect(c).toMatchObject({ country: 'NG', city: 'Lagos', currency: 'NGN', projectDate: '2027-01-12' });
    expect(c).not.toHaveProperty('projectDeadline');
  });

  it('a passion-driven gig stores an empty budget', () => {
    expect(gigContent(form({ locationType: 'remote', isPassionDriven: true, budget: '500' })).budget).toBe('');
  });

  it('a stored gig goes into the form and back unchanged', () => {
    const gig: Gig = {
      id: 'g1',
      createdAt: 1,
      createdBy: 'u1',
      creatorName: 'Ada',
      status: 'active',
      filledAt: null,
      updatedAt: 1,
      openings: 2,
      ...gigContent(form({ locationType: 'in-person', country: 'NG', city: 'Lagos', projectDate: '2027-01-12' })),
    };
    const back = formFromGig(gig);
    expect(back.openings).toBe('2');
    expect(sameGigContent(gigContent(back), gig)).toBe(true);
    expect(sameGigContent({ ...gig, city: 'Abuja' }, gig)).toBe(false);
    expect(Object.keys(contentOf(gig)).sort()).toEqual([
      'budget',
      'category',
      'city',
      'country',
      'currency',
      'description',
      'isPassionDriven',
      'locationType',
      'projectDate',
      'skills',
      'title',
    ]);
  });
});
