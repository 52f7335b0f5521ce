import { useState, type ReactNode } from 'react';
import { buyerCheckout, formatMoney } from '../../../shared/money';
import { NEEDS_NETWORK, WORK_PAYMENT_MESSAGES as W, workPaymentError } from '../../../shared/payment-messages';
import type { Application } from '../../../shared/schemas/application';
import {
  cancellationNoteError,
  changeRequestError,
  disputeReasonError,
  submissionErrors,
} from '../../../shared/validation/work';
import { useData } from '../../data/data-provider';
import { ApiError, isOffline } from '../../lib/api';
import { cancelPaidWork, retryPayment } from '../../lib/payments-api';
import { useOnline } from '../../ui/hooks';
import { ConfirmDialog } from '../../ui/modal';
import {
  askToCancel,
  cancelUnpaid,
  openDispute,
  refuseCancellation,
  requestChanges,
  submitWork,
  withdrawApplication,
  withdrawOffer,
} from '../applications';
import { MarkComplete } from '../payments';
import { NoteDialog } from './note-dialog';
import { buyerMoves, sellerMoves } from './work-moves';

/** What a failed local write says (the machine's refusal when it has one, as thrown by the write). */
const FAILED = {
  submit: 'Failed to submit work. Please try again.',
  changes: 'Failed to request changes. Please try again.',
  dispute: 'Failed to open the dispute. Please try again.',
  cancel: 'Failed to cancel. Please try again.',
  answer: 'Failed to send your answer. Please try again.',
  withdraw: 'Failed to withdraw. Please try again.',
} as const;

type Dialog =
  'submit' | 'changes' | 'dispute' | 'ask-cancel' | 'cancel-unpaid' | 'cancel-paid' | 'refuse' | 'withdraw' | null;

/** One action's state: busy, its error, and the dialog open. */
function useWorkAction() {
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function run(action: () => Promise<unknown>, failure: (err: unknown) => string) {
    setDialog(null);
    setError(null);
    setBusy(true);
    try {
      await action();
    } catch (err) {
      setError(failure(err));
    } finally {
      setBusy(false);
    }
  }
  return { dialog, setDialog, busy, error, setError, run };
}

const messageOf = (fallback: string) => (err: unknown) =>
  err instanceof Error && err.message ? err.message : fallback;

function Actions({ children, error }: { children: ReactNode; error: string | null }) {
  return (
    <>
      <div className="row work-actions">{children}</div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

type WorkAction = ReturnType<typeof useWorkAction>;

/** A button that opens one of the action's dialogs (quiet unless it is the card's main move). */
function OpenDialog({
  act,
  dialog,
  main = false,
  small = false,
  children,
}: {
  act: WorkAction;
  dialog: Exclude<Dialog, null>;
  main?: boolean;
  small?: boolean;
  children: ReactNode;
}) {
  const className = ['button', !main && 'button--quiet', small && 'button--small'].filter(Boolean).join(' ');
  return (
    <button type="button" className={className} disabled={act.busy} onClick={() => act.setDialog(dialog)}>
      {children}
    </button>
  );
}

/** The button and confirmation of cancelling accepted work nothing has been paid for: an offer not paid yet, or the work. */
const cancelUnpaidLabel = (a: Application) => (a.status === 'PENDING_PAYMENT' ? 'Cancel offer' : 'Cancel work');

/** "Cancel offer" / "Cancel work" on accepted work nothing has been paid for, either side. */
function CancelUnpaidDialog({ a, act, otherName }: { a: Application; act: WorkAction; otherName: string }) {
  const data = useData();
  return (
    <ConfirmDialog
      title={a.status === 'PENDING_PAYMENT' ? 'Cancel this offer?' : 'Cancel this work?'}
      message={<p>Nothing has been paid, so nothing is charged. {otherName} will be told. This cannot be undone.</p>}
      confirmLabel={cancelUnpaidLabel(a)}
      onConfirm={() => void act.run(() => cancelUnpaid(data, a.id), messageOf(FAILED.cancel))}
      onCancel={() => act.setDialog(null)}
    />
  );
}

/** "Open a dispute" with its reason, for either side of paid work not finished yet. */
function DisputeDialog({ a, onClose }: { a: Application; onClose: () => void }) {
  const data = useData();
  return (
    <NoteDialog
      title="Open a dispute"
      intro={
        <p>
          An operator will look at the work, the payment and your conversation about “{a.gigTitle}”, and decide who is
          paid what. The automatic release is paused meanwhile.
        </p>
      }
      label="Reason"
      submitLabel="Open dispute"
      validate={({ note }) => ({ note: disputeReasonError(note) })}
      onSubmit={async ({ note }) => {
        await openDispute(data, a.id, note);
        onClose();
      }}
      onClose={onClose}
      failure={FAILED.dispute}
    />
  );
}

/** "Try again" for a payment the provider refused: either side (and operators) may. */
function RetryPayment({ a }: { a: Application }) {
  const online = useOnline();
  const act = useWorkAction();
  return (
    <Actions error={act.error}>
      <button
        type="button"
        className="button"
        disabled={act.busy}
        onClick={() =>
          online
            ? void act.run(
                () => retryPayment(a.id),
                (err) =>
                  isOffline(err)
                    ? NEEDS_NETWORK
                    : workPaymentError(err instanceof ApiError ? err.message : undefined, W.retryFailed),
              )
            : act.setError(NEEDS_NETWORK)
        }
      >
        {act.busy ? 'Trying again…' : 'Try again'}
      </button>
    </Actions>
  );
}

/** The buyer's moves on accepted work beyond paying and the receipt (decision 031). */
export function BuyerWorkActions({ application: a, userId }: { application: Application; userId: string }) {
  const data = useData();
  const act = useWorkAction();
  const total = formatMoney(buyerCheckout(a.finalBudget ?? 0).total, a.currency);
  const moves = buyerMoves(a);
  if (moves.retry) return <RetryPayment a={a} />;
  const canCancel = moves.cancelUnpaid;
  if (!(moves.approveOrChanges || moves.askToCancel || canCancel || moves.dispute)) return null;
  return (
    <Actions error={act.error}>
      {moves.approveOrChanges && (
        <>
          <MarkComplete application={a} userId={userId} approve />
          <OpenDialog act={act} dialog="changes">
            Request changes
          </OpenDialog>
        </>
      )}
      {moves.askToCancel && (
        <OpenDialog act={act} dialog="ask-cancel">
          Ask to cancel
        </OpenDialog>
      )}
      {canCancel && (
        <OpenDialog act={act} dialog="cancel-unpaid">
          {cancelUnpaidLabel(a)}
        </OpenDialog>
      )}
      {moves.dispute && (
        <OpenDialog act={act} dialog="dispute">
          Open a dispute
        </OpenDialog>
      )}
      {act.dialog === 'changes' && (
        <NoteDialog
          title="Request changes"
          intro={
            <p>
              {a.applicantName} will see your note and can submit the work again. The automatic release stops until
              then.
            </p>
          }
          label="What needs to change"
          submitLabel="Request changes"
          validate={({ note }) => ({ note: changeRequestError(note) })}
          onSubmit={async ({ note }) => {
            await requestChanges(data, a.id, note);
            act.setDialog(null);
          }}
          onClose={() => act.setDialog(null)}
          failure={FAILED.changes}
        />
      )}
      {act.dialog === 'ask-cancel' && (
        <NoteDialog
          title="Ask to cancel this work?"
          intro={
            <p>
              If {a.applicantName} accepts, you are refunded {total} in full, service fee included. If they refuse,
              either of you may open a dispute.
            </p>
          }
          label="Note for the freelancer (optional)"
          submitLabel="Ask to cancel"
          validate={({ note }) => ({ note: cancellationNoteError(note) })}
          onSubmit={async ({ note }) => {
            await askToCancel(data, a.id, note);
            act.setDialog(null);
          }}
          onClose={() => act.setDialog(null)}
          failure={FAILED.cancel}
        />
      )}
      {act.dialog === 'cancel-unpaid' && <CancelUnpaidDialog a={a} act={act} otherName={a.applicantName} />}
      {act.dialog === 'dispute' && <DisputeDialog a={a} onClose={() => act.setDialog(null)} />}
    </Actions>
  );
}

/** The freelancer's moves on their application and accepted work (decision 031). */
export function SellerWorkActions({ application: a }: { application: Application }) {
  const data = useData();
  const online = useOnline();
  const act = useWorkAction();
  const total = formatMoney(buyerCheckout(a.finalBudget ?? 0).total, a.currency);
  const moves = sellerMoves(a);
  if (moves.retry) return <RetryPayment a={a} />;
  const { withdraw: withdrawable, cancelUnpaid: cancelUnpaidWork, submit: submittable } = moves;
  if (!(
    withdrawable ||
    cancelUnpaidWork ||
    moves.cancelPaid ||
    moves.answerCancellation ||
    submittable ||
    moves.dispute
  ))
    return null;
  const refundNow = () =>
    online
      ? void act.run(
          () => cancelPaidWork(a.id),
          (err) =>
            isOffline(err)
              ? NEEDS_NETWORK
              : workPaymentError(err instanceof ApiError ? err.message : undefined, W.cancelFailed),
        )
      : (act.setDialog(null), act.setError(NEEDS_NETWORK));
  return (
    <Actions error={act.error}>
      {submittable && (
        <OpenDialog act={act} dialog="submit" main>
          {a.status === 'DELIVERED' ? 'Submit again' : 'Submit work'}
        </OpenDialog>
      )}
      {moves.answerCancellation && (
        <>
          <OpenDialog act={act} dialog="cancel-paid" main>
            Accept and refund
          </OpenDialog>
          <OpenDialog act={act} dialog="refuse">
            Refuse
          </OpenDialog>
        </>
      )}
      {moves.cancelPaid && (
        <OpenDialog act={act} dialog="cancel-paid">
          Cancel and refund
        </OpenDialog>
      )}
      {cancelUnpaidWork && (
        <OpenDialog act={act} dialog="cancel-unpaid">
          {cancelUnpaidLabel(a)}
        </OpenDialog>
      )}
      {withdrawable && (
        <OpenDialog act={act} dialog="withdraw">
          Withdraw application
        </OpenDialog>
      )}
      {moves.dispute && (
        <OpenDialog act={act} dialog="dispute">
          Open a dispute
        </OpenDialog>
      )}
      {act.dialog === 'submit' && (
        <NoteDialog
          title={a.status === 'DELIVERED' ? 'Submit a new version' : 'Submit your work'}
          intro={<p>{a.creatorName} will be asked to approve it and pay, or to request changes.</p>}
          label="Note for the buyer"
          withLink
          submitLabel="Submit work"
          validate={submissionErrors}
          onSubmit={async ({ note, link }) => {
            await submitWork(data, a.id, note, link);
            act.setDialog(null);
          }}
          onClose={() => act.setDialog(null)}
          failure={FAILED.submit}
        />
      )}
      {act.dialog === 'cancel-paid' && (
        <ConfirmDialog
          title="Cancel this work and refund the buyer?"
          message={
            <p>
              {a.creatorName} will be refunded {total} in full, service fee included.
              {a.status === 'DISPUTED' ? ' The dispute is then closed.' : ''} This cannot be undone.
            </p>
          }
          confirmLabel="Cancel and refund"
          onConfirm={refundNow}
          onCancel={() => act.setDialog(null)}
        />
      )}
      {act.dialog === 'refuse' && (
        <ConfirmDialog
          title="Refuse to cancel?"
          message={<p>The work stays in progress. Either of you may then open a dispute.</p>}
          confirmLabel="Refuse"
          onConfirm={() => void act.run(() => refuseCancellation(data, a.id), messageOf(FAILED.answer))}
          onCancel={() => act.setDialog(null)}
        />
      )}
      {act.dialog === 'cancel-unpaid' && <CancelUnpaidDialog a={a} act={act} otherName={a.creatorName} />}
      {act.dialog === 'withdraw' && (
        <ConfirmDialog
          title="Withdraw your application?"
          message={
            <p>
              {a.creatorName} will no longer be able to send you an offer for “{a.gigTitle}”. This cannot be undone.
            </p>
          }
          confirmLabel="Withdraw application"
          onConfirm={() => void act.run(() => withdrawApplication(data, a.id), messageOf(FAILED.withdraw))}
          onCancel={() => act.setDialog(null)}
        />
      )}
      {act.dialog === 'dispute' && <DisputeDialog a={a} onClose={() => act.setDialog(null)} />}
    </Actions>
  );
}

/** The buyer's "Withdraw offer" on an offer not yet answered (→ back to a plain application). */
export function WithdrawOffer({ application: a }: { application: Application }) {
  const data = useData();
  const act = useWorkAction();
  return (
    <Actions error={act.error}>
      <OpenDialog act={act} dialog="withdraw" small>
        Withdraw offer
      </OpenDialog>
      {act.dialog === 'withdraw' && (
        <ConfirmDialog
          title="Withdraw this offer?"
          message={<p>{a.applicantName} will be told. You can send them a new offer later.</p>}
          confirmLabel="Withdraw offer"
          onConfirm={() => void act.run(() => withdrawOffer(data, a.id), messageOf(FAILED.withdraw))}
          onCancel={() => act.setDialog(null)}
        />
      )}
    </Actions>
  );
}
