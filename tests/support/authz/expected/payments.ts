import { ALLOW, deny, type Cell } from './cell';

/** Payments: payout accounts, checkout, confirmation, completion and the Stripe webhooks. */
// prettier-ignore
export const PAYMENT_CELLS: readonly Cell[] = [
  // POST /api/stripe/create-connect-account (own userId)
  ["POST /api/stripe/create-connect-account (own userId)",                             "visitor",        deny(401)],
  ["POST /api/stripe/create-connect-account (own userId)",                             "stranger",       ALLOW],
  ["POST /api/stripe/create-connect-account (own userId)",                             "buyer",          ALLOW],
  ["POST /api/stripe/create-connect-account (own userId)",                             "applicant",      ALLOW],
  ["POST /api/stripe/create-connect-account (own userId)",                             "otherApplicant", ALLOW],
  // POST /api/stripe/create-connect-account (the applicant's userId)
  ["POST /api/stripe/create-connect-account (the applicant's userId)",                 "visitor",        deny(401)],
  ["POST /api/stripe/create-connect-account (the applicant's userId)",                 "stranger",       deny(403, "Payout setup is only for the logged-in user.")],
  ["POST /api/stripe/create-connect-account (the applicant's userId)",                 "buyer",          deny(403, "Payout setup is only for the logged-in user.")],
  ["POST /api/stripe/create-connect-account (the applicant's userId)",                 "applicant",      ALLOW],
  ["POST /api/stripe/create-connect-account (the applicant's userId)",                 "otherApplicant", deny(403, "Payout setup is only for the logged-in user.")],
  // GET /api/stripe/account-status
  ["GET /api/stripe/account-status",                                                   "visitor",        deny(401)],
  ["GET /api/stripe/account-status",                                                   "stranger",       ALLOW],
  ["GET /api/stripe/account-status",                                                   "buyer",          ALLOW],
  ["GET /api/stripe/account-status",                                                   "applicant",      ALLOW],
  ["GET /api/stripe/account-status",                                                   "otherApplicant", ALLOW],
  // GET /api/stripe/account-link/refresh
  ["GET /api/stripe/account-link/refresh",                                             "visitor",        deny(303, "/login")],
  ["GET /api/stripe/account-link/refresh",                                             "stranger",       ALLOW],
  ["GET /api/stripe/account-link/refresh",                                             "buyer",          ALLOW],
  ["GET /api/stripe/account-link/refresh",                                             "applicant",      ALLOW],
  ["GET /api/stripe/account-link/refresh",                                             "otherApplicant", ALLOW],
  // GET the simulated onboarding page of the applicant's link
  ["GET the simulated onboarding page of the applicant's link",                        "visitor",        deny(303, "/login")],
  ["GET the simulated onboarding page of the applicant's link",                        "stranger",       deny(404)],
  ["GET the simulated onboarding page of the applicant's link",                        "buyer",          deny(404)],
  ["GET the simulated onboarding page of the applicant's link",                        "applicant",      ALLOW],
  ["GET the simulated onboarding page of the applicant's link",                        "otherApplicant", deny(404)],
  // POST the simulated onboarding of the applicant's link
  ["POST the simulated onboarding of the applicant's link",                            "visitor",        deny(401)],
  ["POST the simulated onboarding of the applicant's link",                            "stranger",       deny(404)],
  ["POST the simulated onboarding of the applicant's link",                            "buyer",          deny(404)],
  ["POST the simulated onboarding of the applicant's link",                            "applicant",      ALLOW],
  ["POST the simulated onboarding of the applicant's link",                            "otherApplicant", deny(404)],
  // POST /api/payments/checkout (the applicant's application, PENDING_PAYMENT)
  ["POST /api/payments/checkout (the applicant's application, PENDING_PAYMENT)",       "visitor",        deny(401)],
  ["POST /api/payments/checkout (the applicant's application, PENDING_PAYMENT)",       "stranger",       deny(404)],
  ["POST /api/payments/checkout (the applicant's application, PENDING_PAYMENT)",       "buyer",          ALLOW],
  ["POST /api/payments/checkout (the applicant's application, PENDING_PAYMENT)",       "applicant",      deny(403)],
  ["POST /api/payments/checkout (the applicant's application, PENDING_PAYMENT)",       "otherApplicant", deny(404)],
  // GET the simulated checkout page of the buyer's session
  ["GET the simulated checkout page of the buyer's session",                           "visitor",        deny(303, "/login")],
  ["GET the simulated checkout page of the buyer's session",                           "stranger",       deny(404)],
  ["GET the simulated checkout page of the buyer's session",                           "buyer",          ALLOW],
  ["GET the simulated checkout page of the buyer's session",                           "applicant",      deny(404)],
  ["GET the simulated checkout page of the buyer's session",                           "otherApplicant", deny(404)],
  // POST pay the buyer's simulated checkout
  ["POST pay the buyer's simulated checkout",                                          "visitor",        deny(401)],
  ["POST pay the buyer's simulated checkout",                                          "stranger",       deny(404)],
  ["POST pay the buyer's simulated checkout",                                          "buyer",          ALLOW],
  ["POST pay the buyer's simulated checkout",                                          "applicant",      deny(404)],
  ["POST pay the buyer's simulated checkout",                                          "otherApplicant", deny(404)],
  // POST /api/payments/confirm (a paid session)
  ["POST /api/payments/confirm (a paid session)",                                      "visitor",        deny(401)],
  ["POST /api/payments/confirm (a paid session)",                                      "stranger",       deny(404, "Application not found")],
  ["POST /api/payments/confirm (a paid session)",                                      "buyer",          ALLOW],
  ["POST /api/payments/confirm (a paid session)",                                      "applicant",      deny([403, 404])],
  ["POST /api/payments/confirm (a paid session)",                                      "otherApplicant", deny(404, "Application not found")],
  // POST /api/gigs/complete-gig (own userId)
  ["POST /api/gigs/complete-gig (own userId)",                                         "visitor",        deny(401)],
  ["POST /api/gigs/complete-gig (own userId)",                                         "stranger",       deny(404, "Application not found")],
  ["POST /api/gigs/complete-gig (own userId)",                                         "buyer",          ALLOW],
  ["POST /api/gigs/complete-gig (own userId)",                                         "applicant",      deny(403)],
  ["POST /api/gigs/complete-gig (own userId)",                                         "otherApplicant", deny(404, "Application not found")],
  // POST /api/gigs/complete-gig (the buyer's userId)
  ["POST /api/gigs/complete-gig (the buyer's userId)",                                 "visitor",        deny(401)],
  ["POST /api/gigs/complete-gig (the buyer's userId)",                                 "stranger",       deny(403)],
  ["POST /api/gigs/complete-gig (the buyer's userId)",                                 "buyer",          ALLOW],
  ["POST /api/gigs/complete-gig (the buyer's userId)",                                 "applicant",      deny(403)],
  ["POST /api/gigs/complete-gig (the buyer's userId)",                                 "otherApplicant", deny(403)],
  // POST /api/stripe/webhook (a forged checkout.session.completed)
  ["POST /api/stripe/webhook (a forged checkout.session.completed)",                   "visitor",        deny(404)],
  ["POST /api/stripe/webhook (a forged checkout.session.completed)",                   "stranger",       deny(404)],
  ["POST /api/stripe/webhook (a forged checkout.session.completed)",                   "buyer",          deny(404)],
  ["POST /api/stripe/webhook (a forged checkout.session.completed)",                   "applicant",      deny(404)],
  ["POST /api/stripe/webhook (a forged checkout.session.completed)",                   "otherApplicant", deny(404)],
  // POST /api/stripe/webhook in Stripe mode (signed with another secret)
  ["POST /api/stripe/webhook in Stripe mode (signed with another secret)",             "visitor",        deny(400)],
  ["POST /api/stripe/webhook in Stripe mode (signed with another secret)",             "stranger",       deny(400)],
  ["POST /api/stripe/webhook in Stripe mode (signed with another secret)",             "buyer",          deny(400)],
  ["POST /api/stripe/webhook in Stripe mode (signed with another secret)",             "applicant",      deny(400)],
  ["POST /api/stripe/webhook in Stripe mode (signed with another secret)",             "otherApplicant", deny(400)],
];
