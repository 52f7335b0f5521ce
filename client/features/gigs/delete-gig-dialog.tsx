import { ConfirmDialog } from '../../ui/modal';

/** The confirmation before one's own gig is deleted, wherever Delete is offered. */
export function DeleteGigDialog({
  title,
  onConfirm,
  onCancel,
}: {
  title: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <ConfirmDialog
      title="Delete this gig?"
      message={
        <p>“{title}” will be removed from the board. Applicants keep their applications. This cannot be undone.</p>
      }
      confirmLabel="Delete gig"
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}
