import { ALLOW, DENY, deny, type Cell } from './cell';

/** Applying (phase 3 of the actions: these may link the stranger to the buyer, so they run last). */
// prettier-ignore
export const APPLYING_CELLS: readonly Cell[] = [
  // push applications: apply in the applicant's name
  ["push applications: apply in the applicant's name",                                 "visitor",        deny(401)],
  ["push applications: apply in the applicant's name",                                 "stranger",       DENY],
  ["push applications: apply in the applicant's name",                                 "buyer",          DENY],
  ["push applications: apply in the applicant's name",                                 "applicant",      ALLOW],
  ["push applications: apply in the applicant's name",                                 "otherApplicant", DENY],
  // push applications: apply to the buyer's gig
  ["push applications: apply to the buyer's gig",                                      "visitor",        deny(401)],
  ["push applications: apply to the buyer's gig",                                      "stranger",       ALLOW],
  ["push applications: apply to the buyer's gig",                                      "buyer",          deny(undefined, "You cannot apply to your own gig")],
  ["push applications: apply to the buyer's gig",                                      "applicant",      ALLOW],
  ["push applications: apply to the buyer's gig",                                      "otherApplicant", ALLOW],
];
