import { ALLOW, DENY, deny, type Cell } from './cell';

const NOT_FOUND = deny(404, 'Not found');
const APP_NOT_FOUND = deny(404, 'Application not found');

/** Issue 15 (decision 031): delivery, cancellation, disputes and the operator area, the operator included. */
// prettier-ignore
export const WORK_CELLS: readonly Cell[] = [
  // push applications: submit work (IN_PROGRESS → DELIVERED)
  ["push applications: submit work (IN_PROGRESS → DELIVERED)",                         "visitor",        deny(401)],
  ["push applications: submit work (IN_PROGRESS → DELIVERED)",                         "stranger",       DENY],
  ["push applications: submit work (IN_PROGRESS → DELIVERED)",                         "buyer",          deny(undefined, "Only the freelancer on this work can submit it.")],
  ["push applications: submit work (IN_PROGRESS → DELIVERED)",                         "applicant",      ALLOW],
  ["push applications: submit work (IN_PROGRESS → DELIVERED)",                         "otherApplicant", DENY],
  ["push applications: submit work (IN_PROGRESS → DELIVERED)",                         "operator",       DENY],
  // push applications: request changes (DELIVERED → IN_PROGRESS)
  ["push applications: request changes (DELIVERED → IN_PROGRESS)",                     "visitor",        deny(401)],
  ["push applications: request changes (DELIVERED → IN_PROGRESS)",                     "stranger",       DENY],
  ["push applications: request changes (DELIVERED → IN_PROGRESS)",                     "buyer",          ALLOW],
  ["push applications: request changes (DELIVERED → IN_PROGRESS)",                     "applicant",      deny(undefined, "Only the buyer of this gig can approve the work or request changes.")],
  ["push applications: request changes (DELIVERED → IN_PROGRESS)",                     "otherApplicant", DENY],
  ["push applications: request changes (DELIVERED → IN_PROGRESS)",                     "operator",       DENY],
  // push applications: withdraw an application (PENDING → WITHDRAWN)
  ["push applications: withdraw an application (PENDING → WITHDRAWN)",                 "visitor",        deny(401)],
  ["push applications: withdraw an application (PENDING → WITHDRAWN)",                 "stranger",       DENY],
  ["push applications: withdraw an application (PENDING → WITHDRAWN)",                 "buyer",          deny(undefined, "Only the applicant can withdraw this application.")],
  ["push applications: withdraw an application (PENDING → WITHDRAWN)",                 "applicant",      ALLOW],
  ["push applications: withdraw an application (PENDING → WITHDRAWN)",                 "otherApplicant", DENY],
  ["push applications: withdraw an application (PENDING → WITHDRAWN)",                 "operator",       DENY],
  // push applications: withdraw an offer (PENDING_ACCEPTANCE → PENDING)
  ["push applications: withdraw an offer (PENDING_ACCEPTANCE → PENDING)",              "visitor",        deny(401)],
  ["push applications: withdraw an offer (PENDING_ACCEPTANCE → PENDING)",              "stranger",       DENY],
  ["push applications: withdraw an offer (PENDING_ACCEPTANCE → PENDING)",              "buyer",          ALLOW],
  ["push applications: withdraw an offer (PENDING_ACCEPTANCE → PENDING)",              "applicant",      deny(undefined, "Only the creator of this gig can withdraw the offer.")],
  ["push applications: withdraw an offer (PENDING_ACCEPTANCE → PENDING)",              "otherApplicant", DENY],
  ["push applications: withdraw an offer (PENDING_ACCEPTANCE → PENDING)",              "operator",       DENY],
  // push applications: cancel before payment (PENDING_PAYMENT → CANCELLED)
  ["push applications: cancel before payment (PENDING_PAYMENT → CANCELLED)",           "visitor",        deny(401)],
  ["push applications: cancel before payment (PENDING_PAYMENT → CANCELLED)",           "stranger",       DENY],
  ["push applications: cancel before payment (PENDING_PAYMENT → CANCELLED)",           "buyer",          ALLOW],
  ["push applications: cancel before payment (PENDING_PAYMENT → CANCELLED)",           "applicant",      ALLOW],
  ["push applications: cancel before payment (PENDING_PAYMENT → CANCELLED)",           "otherApplicant", DENY],
  ["push applications: cancel before payment (PENDING_PAYMENT → CANCELLED)",           "operator",       DENY],
  // push applications: cancel paid work without a refund (IN_PROGRESS → CANCELLED)
  ["push applications: cancel paid work without a refund (IN_PROGRESS → CANCELLED)",   "visitor",        deny(401)],
  ["push applications: cancel paid work without a refund (IN_PROGRESS → CANCELLED)",   "stranger",       DENY],
  ["push applications: cancel paid work without a refund (IN_PROGRESS → CANCELLED)",   "buyer",          deny(undefined, "This work is paid: the freelancer can cancel it with a full refund, or either side can open a dispute.")],
  ["push applications: cancel paid work without a refund (IN_PROGRESS → CANCELLED)",   "applicant",      deny(undefined, "This work is paid: the freelancer can cancel it with a full refund, or either side can open a dispute.")],
  ["push applications: cancel paid work without a refund (IN_PROGRESS → CANCELLED)",   "otherApplicant", DENY],
  ["push applications: cancel paid work without a refund (IN_PROGRESS → CANCELLED)",   "operator",       DENY],
  // push applications: ask to cancel paid work (IN_PROGRESS → CANCELLATION_REQUESTED)
  ["push applications: ask to cancel paid work (IN_PROGRESS → CANCELLATION_REQUESTED)", "visitor",       deny(401)],
  ["push applications: ask to cancel paid work (IN_PROGRESS → CANCELLATION_REQUESTED)", "stranger",      DENY],
  ["push applications: ask to cancel paid work (IN_PROGRESS → CANCELLATION_REQUESTED)", "buyer",         ALLOW],
  ["push applications: ask to cancel paid work (IN_PROGRESS → CANCELLATION_REQUESTED)", "applicant",     deny(undefined, "Only the buyer of this gig can ask to cancel the work.")],
  ["push applications: ask to cancel paid work (IN_PROGRESS → CANCELLATION_REQUESTED)", "otherApplicant", DENY],
  ["push applications: ask to cancel paid work (IN_PROGRESS → CANCELLATION_REQUESTED)", "operator",      DENY],
  // push applications: refuse a cancellation (CANCELLATION_REQUESTED → IN_PROGRESS)
  ["push applications: refuse a cancellation (CANCELLATION_REQUESTED → IN_PROGRESS)",  "visitor",        deny(401)],
  ["push applications: refuse a cancellation (CANCELLATION_REQUESTED → IN_PROGRESS)",  "stranger",       DENY],
  ["push applications: refuse a cancellation (CANCELLATION_REQUESTED → IN_PROGRESS)",  "buyer",          deny(undefined, "Only the freelancer can accept or refuse a cancellation request.")],
  ["push applications: refuse a cancellation (CANCELLATION_REQUESTED → IN_PROGRESS)",  "applicant",      ALLOW],
  ["push applications: refuse a cancellation (CANCELLATION_REQUESTED → IN_PROGRESS)",  "otherApplicant", DENY],
  ["push applications: refuse a cancellation (CANCELLATION_REQUESTED → IN_PROGRESS)",  "operator",       DENY],
  // push applications: open a dispute (DELIVERED → DISPUTED)
  ["push applications: open a dispute (DELIVERED → DISPUTED)",                         "visitor",        deny(401)],
  ["push applications: open a dispute (DELIVERED → DISPUTED)",                         "stranger",       DENY],
  ["push applications: open a dispute (DELIVERED → DISPUTED)",                         "buyer",          ALLOW],
  ["push applications: open a dispute (DELIVERED → DISPUTED)",                         "applicant",      ALLOW],
  ["push applications: open a dispute (DELIVERED → DISPUTED)",                         "otherApplicant", DENY],
  ["push applications: open a dispute (DELIVERED → DISPUTED)",                         "operator",       DENY],
  // push applications: resolve a dispute (DISPUTED → REFUNDED): only the operator's route resolves
  ["push applications: resolve a dispute (DISPUTED → REFUNDED)",                       "visitor",        deny(401)],
  ["push applications: resolve a dispute (DISPUTED → REFUNDED)",                       "stranger",       DENY],
  ["push applications: resolve a dispute (DISPUTED → REFUNDED)",                       "buyer",          deny(undefined, "This work is under dispute: an operator will resolve it.")],
  ["push applications: resolve a dispute (DISPUTED → REFUNDED)",                       "applicant",      deny(undefined, "This work is under dispute: an operator will resolve it.")],
  ["push applications: resolve a dispute (DISPUTED → REFUNDED)",                       "otherApplicant", DENY],
  ["push applications: resolve a dispute (DISPUTED → REFUNDED)",                       "operator",       DENY],
  // push applications: approve delivered work (DELIVERED → COMPLETED): money moves only over HTTP
  ["push applications: approve delivered work (DELIVERED → COMPLETED)",                "visitor",        deny(401)],
  ["push applications: approve delivered work (DELIVERED → COMPLETED)",                "stranger",       DENY],
  ["push applications: approve delivered work (DELIVERED → COMPLETED)",                "buyer",          deny(undefined, "The field completedAt cannot be changed.")],
  ["push applications: approve delivered work (DELIVERED → COMPLETED)",                "applicant",      deny(undefined, "The field completedAt cannot be changed.")],
  ["push applications: approve delivered work (DELIVERED → COMPLETED)",                "otherApplicant", DENY],
  ["push applications: approve delivered work (DELIVERED → COMPLETED)",                "operator",       DENY],
  // push applications: write a settlement (IN_PROGRESS → SETTLING)
  ["push applications: write a settlement (IN_PROGRESS → SETTLING)",                   "visitor",        deny(401)],
  ["push applications: write a settlement (IN_PROGRESS → SETTLING)",                   "stranger",       DENY],
  ["push applications: write a settlement (IN_PROGRESS → SETTLING)",                   "buyer",          deny(undefined, "The field settlement cannot be changed.")],
  ["push applications: write a settlement (IN_PROGRESS → SETTLING)",                   "applicant",      deny(undefined, "The field settlement cannot be changed.")],
  ["push applications: write a settlement (IN_PROGRESS → SETTLING)",                   "otherApplicant", DENY],
  ["push applications: write a settlement (IN_PROGRESS → SETTLING)",                   "operator",       DENY],
  // POST /api/gigs/complete-gig on delivered work ("Approve and pay", own userId)
  ['POST /api/gigs/complete-gig on delivered work ("Approve and pay", own userId)',    "visitor",        deny(401)],
  ['POST /api/gigs/complete-gig on delivered work ("Approve and pay", own userId)',    "stranger",       APP_NOT_FOUND],
  ['POST /api/gigs/complete-gig on delivered work ("Approve and pay", own userId)',    "buyer",          ALLOW],
  ['POST /api/gigs/complete-gig on delivered work ("Approve and pay", own userId)',    "applicant",      deny(403, "Only the buyer of this gig can mark the work complete.")],
  ['POST /api/gigs/complete-gig on delivered work ("Approve and pay", own userId)',    "otherApplicant", APP_NOT_FOUND],
  ['POST /api/gigs/complete-gig on delivered work ("Approve and pay", own userId)',    "operator",       APP_NOT_FOUND],
  // POST /api/work/cancel (paid work in progress: a full refund)
  ["POST /api/work/cancel (paid work in progress: a full refund)",                     "visitor",        deny(401)],
  ["POST /api/work/cancel (paid work in progress: a full refund)",                     "stranger",       APP_NOT_FOUND],
  ["POST /api/work/cancel (paid work in progress: a full refund)",                     "buyer",          deny(403, "Only the freelancer can cancel paid work.")],
  ["POST /api/work/cancel (paid work in progress: a full refund)",                     "applicant",      ALLOW],
  ["POST /api/work/cancel (paid work in progress: a full refund)",                     "otherApplicant", APP_NOT_FOUND],
  ["POST /api/work/cancel (paid work in progress: a full refund)",                     "operator",       APP_NOT_FOUND],
  // POST /api/work/retry (a refund the provider refused): the parties and operators
  ["POST /api/work/retry (a refund the provider refused)",                             "visitor",        deny(401)],
  ["POST /api/work/retry (a refund the provider refused)",                             "stranger",       APP_NOT_FOUND],
  ["POST /api/work/retry (a refund the provider refused)",                             "buyer",          ALLOW],
  ["POST /api/work/retry (a refund the provider refused)",                             "applicant",      ALLOW],
  ["POST /api/work/retry (a refund the provider refused)",                             "otherApplicant", APP_NOT_FOUND],
  ["POST /api/work/retry (a refund the provider refused)",                             "operator",       ALLOW],
  // GET /api/operator/disputes: nothing of the operator area exists for anyone else
  ["GET /api/operator/disputes",                                                       "visitor",        NOT_FOUND],
  ["GET /api/operator/disputes",                                                       "stranger",       NOT_FOUND],
  ["GET /api/operator/disputes",                                                       "buyer",          NOT_FOUND],
  ["GET /api/operator/disputes",                                                       "applicant",      NOT_FOUND],
  ["GET /api/operator/disputes",                                                       "otherApplicant", NOT_FOUND],
  ["GET /api/operator/disputes",                                                       "operator",       ALLOW],
  // POST /api/operator/disputes/resolve (a refund in full)
  ["POST /api/operator/disputes/resolve (a refund in full)",                           "visitor",        NOT_FOUND],
  ["POST /api/operator/disputes/resolve (a refund in full)",                           "stranger",       NOT_FOUND],
  ["POST /api/operator/disputes/resolve (a refund in full)",                           "buyer",          NOT_FOUND],
  ["POST /api/operator/disputes/resolve (a refund in full)",                           "applicant",      NOT_FOUND],
  ["POST /api/operator/disputes/resolve (a refund in full)",                           "otherApplicant", NOT_FOUND],
  ["POST /api/operator/disputes/resolve (a refund in full)",                           "operator",       ALLOW],
  // POST /api/operator/disputes/resolve (a split)
  ["POST /api/operator/disputes/resolve (a split)",                                    "visitor",        NOT_FOUND],
  ["POST /api/operator/disputes/resolve (a split)",                                    "stranger",       NOT_FOUND],
  ["POST /api/operator/disputes/resolve (a split)",                                    "buyer",          NOT_FOUND],
  ["POST /api/operator/disputes/resolve (a split)",                                    "applicant",      NOT_FOUND],
  ["POST /api/operator/disputes/resolve (a split)",                                    "otherApplicant", NOT_FOUND],
  ["POST /api/operator/disputes/resolve (a split)",                                    "operator",       ALLOW],
];
