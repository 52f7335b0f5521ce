import { autoReleaseLabel } from '../../../shared/display';
import { formatMoney } from '../../../shared/money';
import type { Application } from '../../../shared/schemas/application';
import { useNow } from '../../ui/hooks';
import { settlementFailedText } from './work-texts';

const day = (at: number) => new Date(at).toLocaleDateString();

/** Every submission, oldest first, with the buyer's change request under the one it answered. */
export function Submissions({ application: a }: { application: Application }) {
  const submissions = a.submissions ?? [];
  if (submissions.length === 0) return null;
  return (
    <ol className="submissions" aria-label={`Submissions for ${a.gigTitle}`}>
      {submissions.map((s, i) => (
        <li key={`${s.submittedAt}-${i}`} className="submission">
          <p className="submission__meta">
            Submission {i + 1} · {day(s.submittedAt)}
          </p>
          <p className="submission__note">{s.note}</p>
          {s.link && (
            <p>
              <a href={s.link} target="_blank" rel="noopener noreferrer nofollow">
                {s.link}
              </a>
            </p>
          )}
          {s.changesRequested && (
            <p className="submission__changes">
              <strong>Changes requested:</strong> {s.changesRequested.note}
            </p>
          )}
        </li>
      ))}
    </ol>
  );
}

/** "Releases automatically on 9 December", shown to both sides while delivered work waits. */
export function AutoRelease({ application: a }: { application: Application }) {
  const now = useNow();
  if (a.status !== 'DELIVERED' || typeof a.autoReleaseAt !== 'number') return null;
  return <p className="notice auto-release">{autoReleaseLabel(a.autoReleaseAt, now)}</p>;
}

/**
 * Where the money of accepted work stands, in words, for `side`: a request to cancel, a dispute,
 * a settlement under way or refused, a refund, a split, an automatic release, a cancellation.
 */
export function WorkState({ application: a, side }: { application: Application; side: 'buyer' | 'seller' }) {
  const other = side === 'buyer' ? a.applicantName : a.creatorName;
  const money = (minor: number) => formatMoney(minor, a.currency);
  const s = a.settlement;
  const what = s?.kind === 'refund' ? 'refund' : s?.kind === 'split' ? 'split' : 'payout';
  switch (a.status) {
    case 'IN_PROGRESS':
      if (a.cancellation?.refusedAt)
        return (
          <p className="notice">
            {side === 'buyer' ? `${other} refused to cancel.` : 'You refused to cancel.'} Either of you may open a
            dispute.
          </p>
        );
      return null;
    case 'CANCELLATION_REQUESTED':
      return (
        <div className="notice" role="note">
          <p>
            {side === 'buyer'
              ? `You asked to cancel this work. Waiting for ${other}'s answer.`
              : `${other} asked to cancel this work. Accept to refund them in full, or refuse.`}
          </p>
          {a.cancellation?.note && <p>“{a.cancellation.note}”</p>}
        </div>
      );
    case 'DISPUTED':
      return (
        <div className="notice" role="note">
          <p>
            Dispute opened by {a.dispute && (a.dispute.by === 'buyer') === (side === 'buyer') ? 'you' : other}
            {a.dispute ? ` on ${day(a.dispute.openedAt)}` : ''}. An operator will resolve it; automatic release is
            paused.
          </p>
          {a.dispute && <p>“{a.dispute.reason}”</p>}
        </div>
      );
    case 'SETTLING':
      return <p className="notice">The {what} is under way with the payment provider…</p>;
    case 'SETTLEMENT_FAILED':
      return (
        <p className="form-error" role="alert">
          {settlementFailedText(a, side)}
        </p>
      );
    case 'REFUNDED':
      return (
        <p className="notice">
          {side === 'buyer' ? 'You were refunded' : 'The buyer was refunded'} {money(s?.refund ?? 0)} in full.
        </p>
      );
    case 'SPLIT':
      return (
        <p className="notice">
          Split by an operator: {money(s?.toFreelancer ?? 0)} to the freelancer, {money(s?.refund ?? 0)} refunded to the
          buyer.
        </p>
      );
    case 'COMPLETED':
      return s?.by === 'automatic' ? <p className="notice">Payment released automatically.</p> : null;
    case 'CANCELLED':
      return <p className="notice">Cancelled before any payment.</p>;
    case 'WITHDRAWN':
      return (
        <p className="notice">
          {side === 'buyer' ? `${other} withdrew this application.` : 'You withdrew this application.'}
        </p>
      );
    default:
      return null;
  }
}
