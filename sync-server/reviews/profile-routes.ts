import { Router } from 'express';
import {
  isUsernameShaped,
  newestFirst,
  parseReviewCursor,
  PROFILE_MESSAGES,
  PROFILE_REVIEWS_PAGE,
  reviewCursor,
  type ProfilePage,
  type ProfileReview,
} from '../../shared/profiles';
import { isPublished } from '../../shared/reviews';
import { requireAuth } from '../auth/middleware';
import type { AppContext } from '../context';
import { badRequest, notFound } from '../http/errors';
import type { Stored } from '../store/store';
import { reputationOf } from './reputation';
import { memberByUsername } from './usernames';

/**
 * `GET /api/profiles/:username?before=` (docs/decisions/032-reviews-and-profiles.md): a member's
 * public profile for any signed-in user: the public fields, when they joined, their reputation,
 * and a page of their published reviews with replies, newest first. Never an email or a payout
 * detail. The username is looked up by its claim's id (a Map read, whatever it is); the answer is
 * one page, so a request costs the member's published reviews sorted, at most.
 */
export function profileRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/:username', async (req, res) => {
    const auth = requireAuth(res);
    await ctx.limits.profiles.hit(auth.user.id, PROFILE_MESSAGES.tooMany);
    const username = req.params.username;
    const before = req.query.before;
    const cursor = before === undefined ? undefined : parseReviewCursor(before);
    if (before !== undefined && !cursor) throw badRequest('Invalid page cursor');
    if (Object.keys(req.query).some((k) => k !== 'before')) throw badRequest('Unexpected query parameter');
    const member =
      typeof username === 'string' && isUsernameShaped(username) ? memberByUsername(ctx.store, username) : undefined;
    const reputation = member ? reputationOf(ctx.store, member.id) : undefined;
    if (!member || !reputation) throw notFound(PROFILE_MESSAGES.notFound);

    const published = ctx.store
      .byIndex('reviews', 'subjectId', member.id)
      .filter((r): r is Stored<'reviews'> & { publishedAt: number } => !r._deleted && isPublished(r))
      .sort(newestFirst);
    const from = cursor ? published.filter((r) => newestFirst(cursor, r) < 0) : published;
    const page = from.slice(0, PROFILE_REVIEWS_PAGE);
    const answer: ProfilePage = {
      profile: {
        id: member.id,
        name: member.name,
        username: member.username!,
        location: member.location,
        creativeNiche: member.creativeNiche,
        subcategory: member.subcategory,
        bio: member.bio,
        portfolioLink: member.portfolioLink,
        memberSince: member.createdAt,
        updatedAt: member.updatedAt,
      },
      reputation,
      reviews: page.map((r) => reviewView(ctx, r)),
      nextBefore: from.length > page.length ? reviewCursor(page[page.length - 1]!) : null,
    };
    res.setHeader('Cache-Control', 'no-store');
    res.json(answer);
  });

  return router;
}

function reviewView(ctx: AppContext, r: Stored<'reviews'> & { publishedAt: number }): ProfileReview {
  const author = ctx.store.get('users', r.authorId);
  // Linked only where the name leads to them (an account that shared a name before names were unique does not hold it).
  const linked = author?.username && memberByUsername(ctx.store, author.username)?.id === author.id;
  return {
    id: r.id,
    authorId: r.authorId,
    authorName: author?.name || r.authorName,
    ...(linked ? { authorUsername: author.username } : {}),
    authorRole: r.authorRole,
    gigTitle: r.gigTitle,
    rating: r.rating,
    text: r.text,
    publishedAt: r.publishedAt,
    reply: r.reply,
    repliedAt: r.repliedAt,
  };
}
