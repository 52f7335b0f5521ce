import { applicationIdFor } from '../../../../shared/ids';
import { freshGig, idOf, stored } from '../world';
import { Action, pushCell, selfOf } from '../cells';

/** The matrix's cells for applying (kept last: an allowed cell links the stranger to the buyer). */
export const APPLYING_ACTIONS: Action[] = [
  // --- Applying (last: an allowed cell links the stranger to the buyer) ------------------------
  {
    name: "push applications: apply in the applicant's name",
    phase: 3,
    run: async (w, r) => {
      const f = await freshGig(w, 'none');
      const doc = { id: f.appId, gigId: f.gigId, applicantId: idOf(w, 'applicant'), budget: 5000, status: 'PENDING' };
      return pushCell(w, r, 'applications', doc, null, () => Boolean(stored(w, 'applications', f.appId)));
    },
  },
  {
    name: "push applications: apply to the buyer's gig",
    phase: 3,
    run: async (w, r) => {
      const f = await freshGig(w, 'none');
      const id = applicationIdFor(f.gigId, idOf(w, selfOf(r)));
      const doc = { id, gigId: f.gigId, applicantId: idOf(w, selfOf(r)), budget: 5000, status: 'PENDING' };
      return pushCell(w, r, 'applications', doc, null, () => Boolean(stored(w, 'applications', id)));
    },
  },
];
