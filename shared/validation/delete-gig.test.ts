import { describe, expect, it } from 'vitest';
import { checkDeleteGig } from './delete-gig';

describe("docs/product.md §5 Delete gig: 'Only the creator may delete'", () => {
  it.each<[string, string | null, { createdBy?: string } | undefined, ReturnType<typeof checkDeleteGig>]>([
    ['the creator may delete', 'creator-1', { createdBy: 'creator-1' }, { ok: true }],
    ["§8 'Gig not found.'", 'creator-1', undefined, { ok: false, error: 'Gig not found.' }],
    [
      "§8 another user: 'You do not have permission to delete this gig.'",
      'other-1',
      { createdBy: 'creator-1' },
      { ok: false, error: 'You do not have permission to delete this gig.' },
    ],
    [
      '[decision] logged out: no permission',
      null,
      { createdBy: 'creator-1' },
      { ok: false, error: 'You do not have permission to delete this gig.' },
    ],
    [
      '[decision] a gig without a creator cannot be deleted by anyone',
      'creator-1',
      {},
      { ok: false, error: 'You do not have permission to delete this gig.' },
    ],
    ['[decision] not found comes before permission', null, undefined, { ok: false, error: 'Gig not found.' }],
  ])('%s', (_rule, actor, gig, result) => {
    expect(checkDeleteGig(actor, gig, [])).toEqual(result);
  });
});

describe('[decision 014] never while work on the gig is under way', () => {
  it.each([['PENDING_PAYMENT'], ['IN_PROGRESS']])('refused with an application in %s', (status) => {
    expect(checkDeleteGig('creator-1', { createdBy: 'creator-1' }, [{ status: 'PENDING' }, { status }])).toEqual({
      ok: false,
      error: 'Work on this gig is under way. Complete the work before deleting the gig.',
    });
  });
  it.each([['PENDING'], ['PENDING_ACCEPTANCE'], ['COMPLETED'], ['REJECTED'], ['CLOSED']])(
    'allowed with applications in %s',
    (status) => {
      expect(checkDeleteGig('creator-1', { createdBy: 'creator-1' }, [{ status }])).toEqual({ ok: true });
    },
  );
  it('ownership is judged first: a stranger hears they have no permission, not why', () => {
    expect(checkDeleteGig('other-1', { createdBy: 'creator-1' }, [{ status: 'IN_PROGRESS' }])).toMatchObject({
      error: 'You do not have permission to delete this gig.',
    });
  });
});
