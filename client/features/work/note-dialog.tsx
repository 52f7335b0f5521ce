import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { LIMITS } from '../../../shared/constants';
import { Modal } from '../../ui/modal';

export type NoteDialogProps = {
  title: string;
  intro?: ReactNode;
  /** The note's label; `required` notes are refused empty by `validate`. */
  label: string;
  /** A second field for a link (http or https), optional. */
  withLink?: boolean;
  submitLabel: string;
  /** The field errors of the values, or nothing when they are fine (the shared rules). */
  validate: (values: { note: string; link: string }) => { note?: string; link?: string };
  /** Saves; a thrown error's message is shown, the dialog stays open. */
  onSubmit: (values: { note: string; link: string }) => Promise<void>;
  onClose: () => void;
  /** What a failure says when the error carries no message meant for the user. */
  failure: string;
};

/**
 * A dialog that asks for a note (a submission, a change request, a cancellation note, a dispute's
 * reason) and an optional link, with the counter, the field errors of the shared rules and the
 * first invalid field focused. Keyboard: Tab stays inside, Escape closes (ui/modal.tsx).
 */
export function NoteDialog(props: NoteDialogProps) {
  const id = useId();
  const [note, setNote] = useState('');
  const [link, setLink] = useState('');
  const [errors, setErrors] = useState<{ note?: string; link?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFailure(null);
    const found = props.validate({ note, link });
    setErrors(found);
    if (found.note || found.link) {
      document.getElementById(found.note ? `${id}-note` : `${id}-link`)?.focus();
      return;
    }
    setBusy(true);
    try {
      await props.onSubmit({ note: note.trim(), link: link.trim() });
    } catch (err) {
      setFailure(err instanceof Error && err.message ? err.message : props.failure);
      setBusy(false);
    }
  }

  return (
    <Modal title={props.title} onClose={props.onClose}>
      <form className="form" noValidate onSubmit={(e) => void submit(e)}>
        {props.intro}
        <label htmlFor={`${id}-note`}>
          <span>
            {props.label}{' '}
            <span className="counter">
              {note.length}/{LIMITS.workNoteMax}
            </span>
          </span>
        </label>
        <textarea
          id={`${id}-note`}
          value={note}
          rows={5}
          maxLength={LIMITS.workNoteMax}
          aria-invalid={Boolean(errors.note)}
          aria-describedby={errors.note ? `${id}-note-error` : undefined}
          onChange={(e) => setNote(e.target.value)}
          autoFocus
        />
        {errors.note && (
          <p className="field-error" id={`${id}-note-error`} role="alert">
            {errors.note}
          </p>
        )}
        {props.withLink && (
          <>
            <label htmlFor={`${id}-link`}>Link to the work (optional)</label>
            <input
              id={`${id}-link`}
              type="url"
              inputMode="url"
              placeholder="https://"
              value={link}
              maxLength={LIMITS.urlMax}
              aria-invalid={Boolean(errors.link)}
              aria-describedby={errors.link ? `${id}-link-error` : undefined}
              onChange={(e) => setLink(e.target.value)}
            />
            {errors.link && (
              <p className="field-error" id={`${id}-link-error`} role="alert">
                {errors.link}
              </p>
            )}
          </>
        )}
        {failure && (
          <p className="form-error" role="alert">
            {failure}
          </p>
        )}
        <div className="confirm__actions">
          <button type="button" className="button button--quiet" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" className="button" disabled={busy}>
            {busy ? 'Saving…' : props.submitLabel}
          </button>
        </div>
      </form>
    </Modal>
  );
}
