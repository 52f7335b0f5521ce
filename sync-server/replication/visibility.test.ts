import { describe, expect, it } from 'vitest';
import type { StoredDoc } from '../store/store';
import { viewJson } from './visibility';

const gig = (fields: Record<string, unknown>): StoredDoc => ({
  id: 'gig-json-1',
  title: 'Mural',
  creatorEmail: 'buyer@example.com',
  _seq: 7,
  _deleted: false,
  ...fields,
});

describe('viewJson', () => {
  it("serializes a shared view without the server's fields, and a new version anew", () => {
    const first = gig({});
    const json = viewJson('shared', 'gigs', first);
    expect(JSON.parse(json)).toEqual({ id: 'gig-json-1', title: 'Mural', _deleted: false });
    expect(viewJson('shared', 'gigs', first)).toBe(json);
    // A write stores a new object: its view is the new content, never the kept one.
    const second = gig({ title: 'Mural, two walls', _seq: 8 });
    expect(JSON.parse(viewJson('shared', 'gigs', second))).toMatchObject({ title: 'Mural, two walls' });
  });

  it('keeps nothing for the views that differ by reader', () => {
    const application: StoredDoc = {
      id: 'app-json-1',
      creatorEmail: 'buyer@example.com',
      applicantEmail: 'seller@example.com',
      _seq: 3,
      _deleted: false,
    };
    expect(JSON.parse(viewJson('creator', 'applications', application))).not.toHaveProperty('applicantEmail');
    expect(JSON.parse(viewJson('applicant', 'applications', application))).not.toHaveProperty('creatorEmail');
  });
});
