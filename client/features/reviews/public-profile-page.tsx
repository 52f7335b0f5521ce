import { useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import { countryByCode, nicheById } from '../../../shared/constants';
import {
  isUsernameShaped,
  memberSinceLabel,
  newestFirst,
  PROFILE_MESSAGES,
  usernameKey,
  type ProfilePage,
  type ProfileReview,
} from '../../../shared/profiles';
import { asBuyer, asFreelancer, completedLabel } from '../../../shared/reputation';
import { PATHS } from '../../../shared/routes';
import { useData } from '../../data/data-provider';
import { loadProfilePage, saveProfilePage } from '../../data/profile-pages';
import { useReviewsAbout, useUser } from '../../data/queries';
import { ApiError, isOffline } from '../../lib/api';
import { fetchProfilePage as fetchPage } from '../../lib/profiles-api';
import { useOnline } from '../../ui/hooks';
import { RatingSummary } from './reputation-line';
import { ReviewCard, type ShownReview } from './review-card';
import { replyToReview } from './review-writes';

type Load =
  | { state: 'loading' }
  | { state: 'done'; page: ProfilePage }
  | { state: 'not-found' }
  | { state: 'failed'; offline: boolean; message: string };

/**
 * `/u/{username}` (docs/product.md §2.21): a member's public profile for any signed-in user: who
 * they are, their reputation on each side and their published reviews with replies, newest first.
 * Read from the server and kept on this device, so a profile seen once opens offline; the reviews
 * and reputations this device replicates (the user's own work) update it live, so both reviews
 * appear the moment the second one is written. The reviewed person replies here too.
 */
export default function PublicProfilePage() {
  const { username = '' } = useParams();
  const expectedId = (useLocation().state as { userId?: unknown } | null)?.userId;
  const data = useData();
  const { userId } = data;
  const online = useOnline();
  const key = usernameKey(username);
  const [cached, setCached] = useState<{ key: string; savedAt: number; page: ProfilePage } | undefined>();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [older, setOlder] = useState<{ reviews: ProfileReview[]; nextBefore: string | null } | null>(null);
  const [moreError, setMoreError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    setLoad({ state: 'loading' });
    setOlder(null);
    if (!isUsernameShaped(username)) {
      setLoad({ state: 'not-found' });
      return;
    }
    void loadProfilePage(userId, key)
      .then((saved) => live && saved && setCached({ key, ...saved }))
      .catch(() => undefined);
    fetchPage(username)
      .then(async (page) => {
        if (!live) return;
        setLoad({ state: 'done', page });
        await saveProfilePage(userId, key, page).catch(() => undefined);
      })
      .catch((err: unknown) => {
        if (!live) return;
        if (err instanceof ApiError && err.status === 404) setLoad({ state: 'not-found' });
        else
          setLoad({
            state: 'failed',
            offline: isOffline(err) || !navigator.onLine,
            message: err instanceof ApiError ? err.message : PROFILE_MESSAGES.loadFailed,
          });
      });
    return () => {
      live = false;
    };
  }, [username, key, userId, online, attempt]);

  const saved = cached?.key === key ? cached : undefined;
  const page = load.state === 'done' ? load.page : load.state === 'not-found' ? undefined : saved?.page;
  const memberId = page?.profile.id ?? '';
  const liveReviews = useReviewsAbout(memberId);
  // The member's public profile as this device replicates it (a linked member, a gig creator),
  // newer than the page read: its reputation is shown, so a review just published counts at once.
  const liveProfile = useUser(memberId).data;

  const reviews = useMemo(() => {
    if (!page) return [];
    const shown = new Map<string, ShownReview & { publishedAt: number }>();
    for (const r of [...page.reviews, ...(older?.reviews ?? [])]) shown.set(r.id, r);
    const nextBefore = older ? older.nextBefore : page.nextBefore;
    const oldest = Math.min(...[...shown.values()].map((r) => r.publishedAt));
    for (const r of liveReviews.data ?? []) {
      if (r.publishedAt === null) continue;
      const known = shown.get(r.id);
      if (known) shown.set(r.id, { ...known, reply: r.reply ?? known.reply });
      else if (!nextBefore || r.publishedAt >= oldest) shown.set(r.id, { ...r, publishedAt: r.publishedAt });
    }
    return [...shown.values()].sort(newestFirst);
  }, [page, older, liveReviews.data]);

  if (!page) {
    if (load.state === 'not-found')
      return (
        <main className="page narrow">
          <h1>Profile not found</h1>
          <p>{PROFILE_MESSAGES.notFound}</p>
          <Link className="button" to={PATHS.landing}>
            Go to the gig board
          </Link>
        </main>
      );
    if (load.state === 'failed')
      return (
        <main className="page narrow">
          <h1>Profile</h1>
          <p role="alert">
            {load.offline
              ? "This profile isn't on this device yet. It will load when you're back online."
              : load.message}
          </p>
          {!load.offline && (
            <button type="button" className="button" onClick={() => setAttempt((n) => n + 1)}>
              Try again
            </button>
          )}
        </main>
      );
    return (
      <main className="page narrow">
        <p role="status">Loading profile…</p>
      </main>
    );
  }

  const { profile } = page;
  const reputation =
    liveProfile?.reputation && liveProfile.updatedAt >= profile.updatedAt ? liveProfile.reputation : page.reputation;
  const isMe = profile.id === userId;
  const niche = profile.creativeNiche ? nicheById(profile.creativeNiche)?.name : undefined;
  const nextBefore = older ? older.nextBefore : page.nextBefore;

  async function showMore() {
    if (!nextBefore) return;
    setMoreError(null);
    try {
      const next = await fetchPage(username, nextBefore);
      setOlder((o) => ({ reviews: [...(o?.reviews ?? []), ...next.reviews], nextBefore: next.nextBefore }));
    } catch (err) {
      setMoreError(
        isOffline(err) ? 'You are offline. More reviews load when you reconnect.' : PROFILE_MESSAGES.loadFailed,
      );
    }
  }

  return (
    <main className="page narrow public-profile">
      <h1>{profile.name}</h1>
      <p className="field-state">
        @{profile.username}
        {isMe ? ' · This is your public profile, as other members see it.' : ''}
      </p>
      {typeof expectedId === 'string' && expectedId !== profile.id && (
        <p className="notice" role="status">
          This username now belongs to another member.
        </p>
      )}
      {load.state !== 'done' && saved && (
        <p className="notice" role="status">
          {load.state === 'loading' ? 'Updating… ' : 'Offline: '}
          showing this profile as it was on {new Date(saved.savedAt).toLocaleString()}.
        </p>
      )}
      <dl className="details">
        {profile.location && (
          <>
            <dt>Country</dt>
            <dd>{countryByCode(profile.location)?.name ?? profile.location}</dd>
          </>
        )}
        {niche && (
          <>
            <dt>Niche</dt>
            <dd>
              {niche}
              {profile.subcategory ? ` · ${profile.subcategory}` : ''}
            </dd>
          </>
        )}
        {profile.bio && (
          <>
            <dt>Bio</dt>
            <dd className="public-profile__bio">{profile.bio}</dd>
          </>
        )}
        <dt>Portfolio</dt>
        <dd>
          {profile.portfolioLink ? (
            <a href={profile.portfolioLink} target="_blank" rel="noopener noreferrer nofollow ugc">
              {profile.portfolioLink}
            </a>
          ) : (
            'No portfolio link'
          )}
        </dd>
        {profile.memberSince !== undefined && (
          <>
            <dt>Member since</dt>
            <dd>{memberSinceLabel(profile.memberSince)}</dd>
          </>
        )}
      </dl>

      <section aria-labelledby="reputation-title">
        <h2 id="reputation-title">Reputation</h2>
        <dl className="details">
          <dt>As a freelancer</dt>
          <dd>
            <RatingSummary tally={asFreelancer(reputation)} /> · {completedLabel(reputation.completedAsFreelancer)}
          </dd>
          <dt>As a buyer</dt>
          <dd>
            <RatingSummary tally={asBuyer(reputation)} /> · {completedLabel(reputation.completedAsBuyer)}
          </dd>
        </dl>
      </section>

      <section aria-labelledby="reviews-title">
        <h2 id="reviews-title">Reviews</h2>
        {reviews.length === 0 ? (
          <p className="empty">No reviews yet</p>
        ) : (
          <ul className="card-list" aria-label={`Reviews of ${profile.name}`}>
            {reviews.map((r) => {
              const replicated = isMe && (liveReviews.data ?? []).some((l) => l.id === r.id);
              return (
                <li key={r.id} className="card">
                  <ReviewCard
                    review={r}
                    subjectName={profile.name}
                    onReply={replicated ? (reply) => replyToReview(data, r.id, reply) : undefined}
                  />
                </li>
              );
            })}
          </ul>
        )}
        {nextBefore && (
          <button type="button" className="button button--quiet" onClick={() => void showMore()}>
            Show more reviews
          </button>
        )}
        {moreError && (
          <p className="form-error" role="alert">
            {moreError}
          </p>
        )}
      </section>
    </main>
  );
}
