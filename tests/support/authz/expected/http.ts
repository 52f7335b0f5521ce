import { ALLOW, DENY, deny, type Cell } from './cell';

/** HTTP routes outside sync and payments: health, configuration, sign-up, login, logout, the session, the waitlist, another origin, web push. */
// prettier-ignore
export const HTTP_CELLS: readonly Cell[] = [
  // GET /api/health
  ["GET /api/health",                                                                  "visitor",        ALLOW],
  ["GET /api/health",                                                                  "stranger",       ALLOW],
  ["GET /api/health",                                                                  "buyer",          ALLOW],
  ["GET /api/health",                                                                  "applicant",      ALLOW],
  ["GET /api/health",                                                                  "otherApplicant", ALLOW],
  // GET /api/public-config
  ["GET /api/public-config",                                                           "visitor",        ALLOW],
  ["GET /api/public-config",                                                           "stranger",       ALLOW],
  ["GET /api/public-config",                                                           "buyer",          ALLOW],
  ["GET /api/public-config",                                                           "applicant",      ALLOW],
  ["GET /api/public-config",                                                           "otherApplicant", ALLOW],
  // POST /api/auth/signup (a new account)
  ["POST /api/auth/signup (a new account)",                                            "visitor",        ALLOW],
  ["POST /api/auth/signup (a new account)",                                            "stranger",       ALLOW],
  ["POST /api/auth/signup (a new account)",                                            "buyer",          ALLOW],
  ["POST /api/auth/signup (a new account)",                                            "applicant",      ALLOW],
  ["POST /api/auth/signup (a new account)",                                            "otherApplicant", ALLOW],
  // POST /api/auth/login (own account, again)
  ["POST /api/auth/login (own account, again)",                                        "visitor",        ALLOW],
  ["POST /api/auth/login (own account, again)",                                        "stranger",       ALLOW],
  ["POST /api/auth/login (own account, again)",                                        "buyer",          ALLOW],
  ["POST /api/auth/login (own account, again)",                                        "applicant",      ALLOW],
  ["POST /api/auth/login (own account, again)",                                        "otherApplicant", ALLOW],
  // POST /api/auth/login (another user's email, wrong password)
  ["POST /api/auth/login (another user's email, wrong password)",                      "visitor",        deny(401, "Invalid email or password. Please try again.")],
  ["POST /api/auth/login (another user's email, wrong password)",                      "stranger",       deny(401, "Invalid email or password. Please try again.")],
  ["POST /api/auth/login (another user's email, wrong password)",                      "buyer",          deny(401, "Invalid email or password. Please try again.")],
  ["POST /api/auth/login (another user's email, wrong password)",                      "applicant",      deny(401, "Invalid email or password. Please try again.")],
  ["POST /api/auth/login (another user's email, wrong password)",                      "otherApplicant", deny(401, "Invalid email or password. Please try again.")],
  // POST /api/auth/logout
  ["POST /api/auth/logout",                                                            "visitor",        ALLOW],
  ["POST /api/auth/logout",                                                            "stranger",       ALLOW],
  ["POST /api/auth/logout",                                                            "buyer",          ALLOW],
  ["POST /api/auth/logout",                                                            "applicant",      ALLOW],
  ["POST /api/auth/logout",                                                            "otherApplicant", ALLOW],
  // GET /api/auth/session
  ["GET /api/auth/session",                                                            "visitor",        deny(401)],
  ["GET /api/auth/session",                                                            "stranger",       ALLOW],
  ["GET /api/auth/session",                                                            "buyer",          ALLOW],
  ["GET /api/auth/session",                                                            "applicant",      ALLOW],
  ["GET /api/auth/session",                                                            "otherApplicant", ALLOW],
  // GET /api/auth/me: the app's check at start; a visitor gets 200 with no user (issue 17)
  ["GET /api/auth/me",                                                                 "visitor",        ALLOW],
  ["GET /api/auth/me",                                                                 "stranger",       ALLOW],
  ["GET /api/auth/me",                                                                 "buyer",          ALLOW],
  ["GET /api/auth/me",                                                                 "applicant",      ALLOW],
  ["GET /api/auth/me",                                                                 "otherApplicant", ALLOW],
  // POST /api/waitlist
  ["POST /api/waitlist",                                                               "visitor",        ALLOW],
  ["POST /api/waitlist",                                                               "stranger",       ALLOW],
  ["POST /api/waitlist",                                                               "buyer",          ALLOW],
  ["POST /api/waitlist",                                                               "applicant",      ALLOW],
  ["POST /api/waitlist",                                                               "otherApplicant", ALLOW],
  // POST from another origin with the role’s cookie (push a gig)
  ["POST from another origin with the role’s cookie (push a gig)",                     "visitor",        deny(403)],
  ["POST from another origin with the role’s cookie (push a gig)",                     "stranger",       deny(403)],
  ["POST from another origin with the role’s cookie (push a gig)",                     "buyer",          deny(403)],
  ["POST from another origin with the role’s cookie (push a gig)",                     "applicant",      deny(403)],
  ["POST from another origin with the role’s cookie (push a gig)",                     "otherApplicant", deny(403)],
  // GET /api/push/key
  ["GET /api/push/key",                                                                "visitor",        deny(401)],
  ["GET /api/push/key",                                                                "stranger",       ALLOW],
  ["GET /api/push/key",                                                                "buyer",          ALLOW],
  ["GET /api/push/key",                                                                "applicant",      ALLOW],
  ["GET /api/push/key",                                                                "otherApplicant", ALLOW],
  // POST /api/push/subscribe (this device): a device's notifications are its signed-in user's
  ["POST /api/push/subscribe (this device)",                                           "visitor",        deny(401)],
  ["POST /api/push/subscribe (this device)",                                           "stranger",       ALLOW],
  ["POST /api/push/subscribe (this device)",                                           "buyer",          ALLOW],
  ["POST /api/push/subscribe (this device)",                                           "applicant",      ALLOW],
  ["POST /api/push/subscribe (this device)",                                           "otherApplicant", ALLOW],
  // Another user's device: its state is not shown and cannot be turned off (a record is per user and device)
  ["GET /api/push/subscription (another user's device)",                               "visitor",        deny(401)],
  ["GET /api/push/subscription (another user's device)",                               "stranger",       DENY],
  ["GET /api/push/subscription (another user's device)",                               "buyer",          DENY],
  ["GET /api/push/subscription (another user's device)",                               "applicant",      DENY],
  ["GET /api/push/subscription (another user's device)",                               "otherApplicant", DENY],
  ["POST /api/push/unsubscribe (another user's device)",                               "visitor",        deny(401)],
  ["POST /api/push/unsubscribe (another user's device)",                               "stranger",       DENY],
  ["POST /api/push/unsubscribe (another user's device)",                               "buyer",          DENY],
  ["POST /api/push/unsubscribe (another user's device)",                               "applicant",      DENY],
  ["POST /api/push/unsubscribe (another user's device)",                               "otherApplicant", DENY],
];
