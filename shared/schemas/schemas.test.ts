import { describe, expect, it } from 'vitest';
import { applicationRxSchema, applicationSchema } from './application';
import { gigRxSchema } from './gig';
import { normalizeNotification, notificationSchema } from './notification';
import { isProfileComplete } from '../profile-complete';
import { publicProfileSchema, userSchema } from './user';
import { waitlistEntrySchema } from './waitlist';

describe('one schema per entity: type, validation and RxDB schema from one source', () => {
  it('RxDB schemas carry the primary key, indexes and the lengths RxDB requires', () => {
    expect(gigRxSchema).toMatchObject({
      primaryKey: 'id',
      version: 1,
      type: 'object',
      indexes: ['createdAt', 'createdBy'],
    });
    expect(gigRxSchema.properties.id).toMatchObject({ type: 'string', maxLength: 128 });
    expect(gigRxSchema.properties.createdAt).toMatchObject({ type: 'integer', multipleOf: 1 });
    expect(gigRxSchema.properties.title).toMatchObject({ maxLength: 100 });
    expect(applicationRxSchema.required).toContain('status');
  });

  it('validates at run time with the docs/product.md limits', () => {
    const base = { id: 'user-abc123', name: 'Ada', updatedAt: 1 };
    expect(publicProfileSchema.safeParse(base).success).toBe(true);
    expect(userSchema.safeParse({ ...base, location: 'XX' }).success).toBe(false);
    expect(applicationSchema.shape.status.safeParse('SELECTED').success).toBe(false);
    expect(
      waitlistEntrySchema.safeParse({
        name: 'a',
        email: 'a@b.co',
        location: 'NG',
        city: 'Lagos',
        submittedAt: 1,
        status: 'pending',
      }).success,
    ).toBe(true);
  });

  it('notifications: both readings of the read marker and the time field are accepted on input', () => {
    const n = normalizeNotification({
      id: 'n1',
      userId: 'user-abc123',
      type: 'message',
      message: 'hi',
      status: 'unread',
      timestamp: 5,
      updatedAt: 5,
    });
    expect(n).toMatchObject({ read: false, createdAt: 5 });
    expect(notificationSchema.safeParse(n).success).toBe(true);
    expect(normalizeNotification({ read: true, createdAt: 1 })).toMatchObject({ read: true, createdAt: 1 });
  });

  it('a profile is complete once setup gave it every setup field', () => {
    expect(
      isProfileComplete({
        username: 'ada',
        location: 'CA',
        creativeNiche: 'media',
        subcategory: 'Editing',
        portfolioLink: 'https://a.example',
      }),
    ).toBe(true);
    expect(
      isProfileComplete({
        username: 'ada',
        location: 'CA',
        creativeNiche: 'media',
        subcategory: 'Editing',
        portfolioLink: undefined,
      }),
    ).toBe(false);
    expect(isProfileComplete(undefined)).toBe(false);
  });
});
