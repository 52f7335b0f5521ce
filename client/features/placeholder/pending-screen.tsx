import { Link } from 'react-router-dom';

/** Screens whose issue is still open show their title and a way back, never a fake screen. */
export default function PendingScreen({ title }: { title: string }) {
  return (
    <main className="page narrow">
      <h1>{title}</h1>
      <p>This screen is not available yet.</p>
      <Link to="/landing">Back to the gig board</Link>
    </main>
  );
}
