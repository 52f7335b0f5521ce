import { useEffect, useState } from 'react';
import { api } from '../../lib/api';

/** `/version1`: an invitation to the community chat group; the link is server configuration. */
export default function CommunityPage() {
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    api<{ communityChatUrl: string }>('GET', '/api/public-config').then(
      (c) => setUrl(c.communityChatUrl),
      () => setFailed(true),
    );
  }, []);
  return (
    <main className="page narrow prose">
      <h1>Join our community</h1>
      <p>Meet other creatives, share work in progress and hear first about new gigs in our community chat group.</p>
      {url && (
        <a className="button" href={url} target="_blank" rel="noreferrer noopener">
          Join the community chat
        </a>
      )}
      {failed && (
        <p className="notice">The invitation link could not be loaded. Please check your connection and try again.</p>
      )}
    </main>
  );
}
