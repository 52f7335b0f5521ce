import { countryByCode, nicheById } from '../../../shared/constants';
import type { Application } from '../../../shared/schemas/application';
import { useUser } from '../../data/queries';
import { Modal } from '../../ui/modal';
import { ProfileLink, ReputationLine } from '../reviews';

/** The applicant modal: the applicant's public profile and portfolio link (from the local database). */
export function ApplicantProfileModal({ application, onClose }: { application: Application; onClose: () => void }) {
  const { data: profile, loading } = useUser(application.applicantId);
  const link = profile?.portfolioLink || application.applicantPortfolioLink;
  return (
    <Modal title={profile?.name ?? application.applicantName} onClose={onClose}>
      {loading ? (
        <p role="status">Loading profile…</p>
      ) : (
        <dl className="details">
          {profile?.username && (
            <>
              <dt>Username</dt>
              <dd>@{profile.username}</dd>
            </>
          )}
          {profile?.location && (
            <>
              <dt>Location</dt>
              <dd>{countryByCode(profile.location)?.name ?? profile.location}</dd>
            </>
          )}
          {profile?.creativeNiche && (
            <>
              <dt>Niche</dt>
              <dd>
                {nicheById(profile.creativeNiche)?.name ?? profile.creativeNiche}
                {profile.subcategory ? ` · ${profile.subcategory}` : ''}
              </dd>
            </>
          )}
          {profile?.bio && (
            <>
              <dt>Bio</dt>
              <dd>{profile.bio}</dd>
            </>
          )}
          <dt>As a freelancer</dt>
          <dd>
            <ReputationLine userId={application.applicantId} side="freelancer" />
          </dd>
          <dt>Public profile</dt>
          <dd>
            <ProfileLink
              userId={application.applicantId}
              name={`See ${profile?.name ?? application.applicantName}’s reviews`}
              username={profile?.username}
            />
          </dd>
          <dt>Portfolio</dt>
          <dd>
            {link ? (
              <a href={link} target="_blank" rel="noopener noreferrer">
                {link}
              </a>
            ) : (
              'No portfolio link'
            )}
          </dd>
        </dl>
      )}
    </Modal>
  );
}
