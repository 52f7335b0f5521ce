import type { Role } from './world';

/**
 * The expected outcome of every role × action (issue 9, "Authorization matrix"), decided from
 * docs/product.md §5–§8, docs/architecture.md (read filtering, who writes what, chat access) and
 * docs/decisions/ (001 replication, 003 emails, 004 gig rules and status moves, 007 payments),
 * not from what the server happens to answer.
 *
 * One row per cell: [action, role, expected]. ALLOW means the action does its job (a read shows
 * the document, a write lands in the store, a socket opens, a route answers its success). A denial
 * names the HTTP status (or WebSocket close code) and the refusal reason where docs/product.md, a decision
 * or the state machine (shared/application-machine.ts) fixes them; `undefined` leaves it open.
 * For reads, a member's denial has no status: the document is simply not there.
 */
export type Expected = { allow: true } | { allow: false; status?: number | readonly number[]; reason?: string };
export type Cell = readonly [action: string, role: Role, expected: Expected];

const ALLOW: Expected = { allow: true };
const DENY: Expected = { allow: false };
const deny = (status?: number | readonly number[], reason?: string): Expected => ({
  allow: false,
  ...(status !== undefined ? { status } : {}),
  ...(reason !== undefined ? { reason } : {}),
});

// prettier-ignore
const MEMBER_CELLS: readonly Cell[] = [
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
  // GET /api/sync/users/pull
  ["GET /api/sync/users/pull",                                                         "visitor",        deny(401)],
  ["GET /api/sync/users/pull",                                                         "stranger",       ALLOW],
  ["GET /api/sync/users/pull",                                                         "buyer",          ALLOW],
  ["GET /api/sync/users/pull",                                                         "applicant",      ALLOW],
  ["GET /api/sync/users/pull",                                                         "otherApplicant", ALLOW],
  // GET /api/sync/gigs/pull
  ["GET /api/sync/gigs/pull",                                                          "visitor",        deny(401)],
  ["GET /api/sync/gigs/pull",                                                          "stranger",       ALLOW],
  ["GET /api/sync/gigs/pull",                                                          "buyer",          ALLOW],
  ["GET /api/sync/gigs/pull",                                                          "applicant",      ALLOW],
  ["GET /api/sync/gigs/pull",                                                          "otherApplicant", ALLOW],
  // GET /api/sync/applications/pull
  ["GET /api/sync/applications/pull",                                                  "visitor",        deny(401)],
  ["GET /api/sync/applications/pull",                                                  "stranger",       ALLOW],
  ["GET /api/sync/applications/pull",                                                  "buyer",          ALLOW],
  ["GET /api/sync/applications/pull",                                                  "applicant",      ALLOW],
  ["GET /api/sync/applications/pull",                                                  "otherApplicant", ALLOW],
  // GET /api/sync/reviews/pull
  ["GET /api/sync/reviews/pull",                                                       "visitor",        deny(401)],
  ["GET /api/sync/reviews/pull",                                                       "stranger",       ALLOW],
  ["GET /api/sync/reviews/pull",                                                       "buyer",          ALLOW],
  ["GET /api/sync/reviews/pull",                                                       "applicant",      ALLOW],
  ["GET /api/sync/reviews/pull",                                                       "otherApplicant", ALLOW],
  // GET /api/sync/notifications/pull
  ["GET /api/sync/notifications/pull",                                                 "visitor",        deny(401)],
  ["GET /api/sync/notifications/pull",                                                 "stranger",       ALLOW],
  ["GET /api/sync/notifications/pull",                                                 "buyer",          ALLOW],
  ["GET /api/sync/notifications/pull",                                                 "applicant",      ALLOW],
  ["GET /api/sync/notifications/pull",                                                 "otherApplicant", ALLOW],
  // GET /api/sync/conversations/pull
  ["GET /api/sync/conversations/pull",                                                 "visitor",        deny(401)],
  ["GET /api/sync/conversations/pull",                                                 "stranger",       ALLOW],
  ["GET /api/sync/conversations/pull",                                                 "buyer",          ALLOW],
  ["GET /api/sync/conversations/pull",                                                 "applicant",      ALLOW],
  ["GET /api/sync/conversations/pull",                                                 "otherApplicant", ALLOW],
  // GET /api/sync/credentials/pull (server-only collection)
  ["GET /api/sync/credentials/pull (server-only collection)",                          "visitor",        deny([401, 404])],
  ["GET /api/sync/credentials/pull (server-only collection)",                          "stranger",       deny(404)],
  ["GET /api/sync/credentials/pull (server-only collection)",                          "buyer",          deny(404)],
  ["GET /api/sync/credentials/pull (server-only collection)",                          "applicant",      deny(404)],
  ["GET /api/sync/credentials/pull (server-only collection)",                          "otherApplicant", deny(404)],
  // GET /api/sync/sessions/pull (server-only collection)
  ["GET /api/sync/sessions/pull (server-only collection)",                             "visitor",        deny([401, 404])],
  ["GET /api/sync/sessions/pull (server-only collection)",                             "stranger",       deny(404)],
  ["GET /api/sync/sessions/pull (server-only collection)",                             "buyer",          deny(404)],
  ["GET /api/sync/sessions/pull (server-only collection)",                             "applicant",      deny(404)],
  ["GET /api/sync/sessions/pull (server-only collection)",                             "otherApplicant", deny(404)],
  // GET /api/sync/ledger/pull (server-only collection)
  ["GET /api/sync/ledger/pull (server-only collection)",                               "visitor",        deny([401, 404])],
  ["GET /api/sync/ledger/pull (server-only collection)",                               "stranger",       deny(404)],
  ["GET /api/sync/ledger/pull (server-only collection)",                               "buyer",          deny(404)],
  ["GET /api/sync/ledger/pull (server-only collection)",                               "applicant",      deny(404)],
  ["GET /api/sync/ledger/pull (server-only collection)",                               "otherApplicant", deny(404)],
  // GET /api/sync/waitlist/pull (server-only collection)
  ["GET /api/sync/waitlist/pull (server-only collection)",                             "visitor",        deny([401, 404])],
  ["GET /api/sync/waitlist/pull (server-only collection)",                             "stranger",       deny(404)],
  ["GET /api/sync/waitlist/pull (server-only collection)",                             "buyer",          deny(404)],
  ["GET /api/sync/waitlist/pull (server-only collection)",                             "applicant",      deny(404)],
  ["GET /api/sync/waitlist/pull (server-only collection)",                             "otherApplicant", deny(404)],
  // GET /api/sync/portfolios/pull (server-only collection)
  ["GET /api/sync/portfolios/pull (server-only collection)",                           "visitor",        deny([401, 404])],
  ["GET /api/sync/portfolios/pull (server-only collection)",                           "stranger",       deny(404)],
  ["GET /api/sync/portfolios/pull (server-only collection)",                           "buyer",          deny(404)],
  ["GET /api/sync/portfolios/pull (server-only collection)",                           "applicant",      deny(404)],
  ["GET /api/sync/portfolios/pull (server-only collection)",                           "otherApplicant", deny(404)],
  // GET /api/sync/pushsubscriptions/pull (server-only collection)
  ["GET /api/sync/pushsubscriptions/pull (server-only collection)",                    "visitor",        deny([401, 404])],
  ["GET /api/sync/pushsubscriptions/pull (server-only collection)",                    "stranger",       deny(404)],
  ["GET /api/sync/pushsubscriptions/pull (server-only collection)",                    "buyer",          deny(404)],
  ["GET /api/sync/pushsubscriptions/pull (server-only collection)",                    "applicant",      deny(404)],
  ["GET /api/sync/pushsubscriptions/pull (server-only collection)",                    "otherApplicant", deny(404)],
  // POST /api/sync/credentials/push (server-only collection)
  ["POST /api/sync/credentials/push (server-only collection)",                         "visitor",        deny([401, 404])],
  ["POST /api/sync/credentials/push (server-only collection)",                         "stranger",       deny(404)],
  ["POST /api/sync/credentials/push (server-only collection)",                         "buyer",          deny(404)],
  ["POST /api/sync/credentials/push (server-only collection)",                         "applicant",      deny(404)],
  ["POST /api/sync/credentials/push (server-only collection)",                         "otherApplicant", deny(404)],
  // GET /api/sync/stream (hello)
  ["GET /api/sync/stream (hello)",                                                     "visitor",        deny(401)],
  ["GET /api/sync/stream (hello)",                                                     "stranger",       ALLOW],
  ["GET /api/sync/stream (hello)",                                                     "buyer",          ALLOW],
  ["GET /api/sync/stream (hello)",                                                     "applicant",      ALLOW],
  ["GET /api/sync/stream (hello)",                                                     "otherApplicant", ALLOW],
  // pull users: own record with email and payout id
  ["pull users: own record with email and payout id",                                  "visitor",        deny(401)],
  ["pull users: own record with email and payout id",                                  "stranger",       ALLOW],
  ["pull users: own record with email and payout id",                                  "buyer",          ALLOW],
  ["pull users: own record with email and payout id",                                  "applicant",      ALLOW],
  ["pull users: own record with email and payout id",                                  "otherApplicant", ALLOW],
  // pull users: the buyer's profile
  ["pull users: the buyer's profile",                                                  "visitor",        deny(401)],
  // The buyer has a gig on the board: their public profile is everyone's to see (decision 032).
  ["pull users: the buyer's profile",                                                  "stranger",       ALLOW],
  ["pull users: the buyer's profile",                                                  "buyer",          ALLOW],
  ["pull users: the buyer's profile",                                                  "applicant",      ALLOW],
  ["pull users: the buyer's profile",                                                  "otherApplicant", ALLOW],
  // pull users: the applicant's profile
  ["pull users: the applicant's profile",                                              "visitor",        deny(401)],
  ["pull users: the applicant's profile",                                              "stranger",       DENY],
  ["pull users: the applicant's profile",                                              "buyer",          ALLOW],
  ["pull users: the applicant's profile",                                              "applicant",      ALLOW],
  ["pull users: the applicant's profile",                                              "otherApplicant", DENY],
  // pull users: the other applicant's profile
  ["pull users: the other applicant's profile",                                        "visitor",        deny(401)],
  ["pull users: the other applicant's profile",                                        "stranger",       DENY],
  ["pull users: the other applicant's profile",                                        "buyer",          ALLOW],
  ["pull users: the other applicant's profile",                                        "applicant",      DENY],
  ["pull users: the other applicant's profile",                                        "otherApplicant", ALLOW],
  // pull users: the stranger's profile
  ["pull users: the stranger's profile",                                               "visitor",        deny(401)],
  ["pull users: the stranger's profile",                                               "stranger",       ALLOW],
  ["pull users: the stranger's profile",                                               "buyer",          DENY],
  ["pull users: the stranger's profile",                                               "applicant",      DENY],
  ["pull users: the stranger's profile",                                               "otherApplicant", DENY],
  // pull users: another user's email, payout id or other private field
  ["pull users: another user's email, payout id or other private field",               "visitor",        deny(401)],
  ["pull users: another user's email, payout id or other private field",               "stranger",       DENY],
  ["pull users: another user's email, payout id or other private field",               "buyer",          DENY],
  ["pull users: another user's email, payout id or other private field",               "applicant",      DENY],
  ["pull users: another user's email, payout id or other private field",               "otherApplicant", DENY],
  // pull gigs: the buyer's gig
  ["pull gigs: the buyer's gig",                                                       "visitor",        deny(401)],
  ["pull gigs: the buyer's gig",                                                       "stranger",       ALLOW],
  ["pull gigs: the buyer's gig",                                                       "buyer",          ALLOW],
  ["pull gigs: the buyer's gig",                                                       "applicant",      ALLOW],
  ["pull gigs: the buyer's gig",                                                       "otherApplicant", ALLOW],
  // pull gigs: a creatorEmail on any gig
  ["pull gigs: a creatorEmail on any gig",                                             "visitor",        deny(401)],
  ["pull gigs: a creatorEmail on any gig",                                             "stranger",       DENY],
  ["pull gigs: a creatorEmail on any gig",                                             "buyer",          DENY],
  ["pull gigs: a creatorEmail on any gig",                                             "applicant",      DENY],
  ["pull gigs: a creatorEmail on any gig",                                             "otherApplicant", DENY],
  // pull applications: the applicant's application
  ["pull applications: the applicant's application",                                    "visitor",        deny(401)],
  ["pull applications: the applicant's application",                                    "stranger",       DENY],
  ["pull applications: the applicant's application",                                    "buyer",          ALLOW],
  ["pull applications: the applicant's application",                                    "applicant",      ALLOW],
  ["pull applications: the applicant's application",                                    "otherApplicant", DENY],
  // pull applications: the other side's email before an offer is accepted
  ["pull applications: the other side's email before an offer is accepted",             "visitor",        deny(401)],
  ["pull applications: the other side's email before an offer is accepted",             "stranger",       DENY],
  ["pull applications: the other side's email before an offer is accepted",             "buyer",          DENY],
  ["pull applications: the other side's email before an offer is accepted",             "applicant",      DENY],
  ["pull applications: the other side's email before an offer is accepted",             "otherApplicant", DENY],
  // pull applications: the other side's email once the offer is accepted
  ["pull applications: the other side's email once the offer is accepted",              "visitor",        deny(401)],
  ["pull applications: the other side's email once the offer is accepted",              "stranger",       DENY],
  ["pull applications: the other side's email once the offer is accepted",              "buyer",          ALLOW],
  ["pull applications: the other side's email once the offer is accepted",              "applicant",      ALLOW],
  ["pull applications: the other side's email once the offer is accepted",              "otherApplicant", DENY],
  // pull applications: the other applicant's application
  ["pull applications: the other applicant's application",                             "visitor",        deny(401)],
  ["pull applications: the other applicant's application",                             "stranger",       DENY],
  ["pull applications: the other applicant's application",                             "buyer",          ALLOW],
  ["pull applications: the other applicant's application",                             "applicant",      DENY],
  ["pull applications: the other applicant's application",                             "otherApplicant", ALLOW],
  // pull notifications: the buyer's new_application notifications
  ["pull notifications: the buyer's new_application notifications",                    "visitor",        deny(401)],
  ["pull notifications: the buyer's new_application notifications",                    "stranger",       DENY],
  ["pull notifications: the buyer's new_application notifications",                    "buyer",          ALLOW],
  ["pull notifications: the buyer's new_application notifications",                    "applicant",      DENY],
  ["pull notifications: the buyer's new_application notifications",                    "otherApplicant", DENY],
  // pull notifications: the applicant's new_conversation notification
  ["pull notifications: the applicant's new_conversation notification",                "visitor",        deny(401)],
  ["pull notifications: the applicant's new_conversation notification",                "stranger",       DENY],
  ["pull notifications: the applicant's new_conversation notification",                "buyer",          DENY],
  ["pull notifications: the applicant's new_conversation notification",                "applicant",      ALLOW],
  ["pull notifications: the applicant's new_conversation notification",                "otherApplicant", DENY],
  // pull notifications: anybody else’s notification
  ["pull notifications: anybody else’s notification",                                  "visitor",        deny(401)],
  ["pull notifications: anybody else’s notification",                                  "stranger",       DENY],
  ["pull notifications: anybody else’s notification",                                  "buyer",          DENY],
  ["pull notifications: anybody else’s notification",                                  "applicant",      DENY],
  ["pull notifications: anybody else’s notification",                                  "otherApplicant", DENY],
  // pull conversations: the buyer–applicant conversation
  ["pull conversations: the buyer–applicant conversation",                             "visitor",        deny(401)],
  ["pull conversations: the buyer–applicant conversation",                             "stranger",       DENY],
  ["pull conversations: the buyer–applicant conversation",                             "buyer",          ALLOW],
  ["pull conversations: the buyer–applicant conversation",                             "applicant",      ALLOW],
  ["pull conversations: the buyer–applicant conversation",                             "otherApplicant", DENY],
  // stream: the buyer's new gig
  ["stream: the buyer's new gig",                                                      "visitor",        deny(401)],
  ["stream: the buyer's new gig",                                                      "stranger",       ALLOW],
  ["stream: the buyer's new gig",                                                      "buyer",          ALLOW],
  ["stream: the buyer's new gig",                                                      "applicant",      ALLOW],
  ["stream: the buyer's new gig",                                                      "otherApplicant", ALLOW],
  // stream: the applicant's new application
  ["stream: the applicant's new application",                                          "visitor",        deny(401)],
  ["stream: the applicant's new application",                                          "stranger",       DENY],
  ["stream: the applicant's new application",                                          "buyer",          ALLOW],
  ["stream: the applicant's new application",                                          "applicant",      ALLOW],
  ["stream: the applicant's new application",                                          "otherApplicant", DENY],
  // stream: the buyer's new_application notification
  ["stream: the buyer's new_application notification",                                 "visitor",        deny(401)],
  ["stream: the buyer's new_application notification",                                 "stranger",       DENY],
  ["stream: the buyer's new_application notification",                                 "buyer",          ALLOW],
  ["stream: the buyer's new_application notification",                                 "applicant",      DENY],
  ["stream: the buyer's new_application notification",                                 "otherApplicant", DENY],
  // stream: the applicant's profile (re-stamped by the application)
  ["stream: the applicant's profile (re-stamped by the application)",                  "visitor",        deny(401)],
  ["stream: the applicant's profile (re-stamped by the application)",                  "stranger",       DENY],
  ["stream: the applicant's profile (re-stamped by the application)",                  "buyer",          ALLOW],
  ["stream: the applicant's profile (re-stamped by the application)",                  "applicant",      ALLOW],
  ["stream: the applicant's profile (re-stamped by the application)",                  "otherApplicant", DENY],
  // stream: another user's email, payout id or creatorEmail
  ["stream: another user's email, payout id or creatorEmail",                          "visitor",        deny(401)],
  ["stream: another user's email, payout id or creatorEmail",                          "stranger",       DENY],
  ["stream: another user's email, payout id or creatorEmail",                          "buyer",          DENY],
  ["stream: another user's email, payout id or creatorEmail",                          "applicant",      DENY],
  ["stream: another user's email, payout id or creatorEmail",                          "otherApplicant", DENY],
  // stream: the other side's email on an application before an offer is accepted
  ["stream: the other side's email on an application before an offer is accepted",      "visitor",        deny(401)],
  ["stream: the other side's email on an application before an offer is accepted",      "stranger",       DENY],
  ["stream: the other side's email on an application before an offer is accepted",      "buyer",          DENY],
  ["stream: the other side's email on an application before an offer is accepted",      "applicant",      DENY],
  ["stream: the other side's email on an application before an offer is accepted",      "otherApplicant", DENY],
  // chat: open the buyer–applicant room
  ["chat: open the buyer–applicant room",                                              "visitor",        deny(401, "Please log in to start a conversation")],
  ["chat: open the buyer–applicant room",                                              "stranger",       deny(403)],
  ["chat: open the buyer–applicant room",                                              "buyer",          ALLOW],
  ["chat: open the buyer–applicant room",                                              "applicant",      ALLOW],
  ["chat: open the buyer–applicant room",                                              "otherApplicant", deny(403)],
  // chat: open the buyer–other-applicant room
  ["chat: open the buyer–other-applicant room",                                        "visitor",        deny(401, "Please log in to start a conversation")],
  ["chat: open the buyer–other-applicant room",                                        "stranger",       deny(403)],
  ["chat: open the buyer–other-applicant room",                                        "buyer",          ALLOW],
  ["chat: open the buyer–other-applicant room",                                        "applicant",      deny(403)],
  ["chat: open the buyer–other-applicant room",                                        "otherApplicant", ALLOW],
  // chat: open the applicant–other-applicant room (no application links them)
  ["chat: open the applicant–other-applicant room (no application links them)",        "visitor",        deny(401, "Please log in to start a conversation")],
  ["chat: open the applicant–other-applicant room (no application links them)",        "stranger",       deny(403)],
  ["chat: open the applicant–other-applicant room (no application links them)",        "buyer",          deny(403)],
  ["chat: open the applicant–other-applicant room (no application links them)",        "applicant",      deny(403)],
  ["chat: open the applicant–other-applicant room (no application links them)",        "otherApplicant", deny(403)],
  // chat: open the buyer–stranger room (no application links them)
  ["chat: open the buyer–stranger room (no application links them)",                   "visitor",        deny(401, "Please log in to start a conversation")],
  ["chat: open the buyer–stranger room (no application links them)",                   "stranger",       deny(403)],
  ["chat: open the buyer–stranger room (no application links them)",                   "buyer",          deny(403)],
  ["chat: open the buyer–stranger room (no application links them)",                   "applicant",      deny(403)],
  ["chat: open the buyer–stranger room (no application links them)",                   "otherApplicant", deny(403)],
  // chat: open a room with oneself
  ["chat: open a room with oneself",                                                   "visitor",        deny(401, "Please log in to start a conversation")],
  ["chat: open a room with oneself",                                                   "stranger",       deny(400, "You cannot converse with yourself")],
  ["chat: open a room with oneself",                                                   "buyer",          deny(400, "You cannot converse with yourself")],
  ["chat: open a room with oneself",                                                   "applicant",      deny(400, "You cannot converse with yourself")],
  ["chat: open a room with oneself",                                                   "otherApplicant", deny(400, "You cannot converse with yourself")],
  // chat: open the buyer–applicant room from another origin
  ["chat: open the buyer–applicant room from another origin",                          "visitor",        deny(403)],
  ["chat: open the buyer–applicant room from another origin",                          "stranger",       deny(403)],
  ["chat: open the buyer–applicant room from another origin",                          "buyer",          deny(403)],
  ["chat: open the buyer–applicant room from another origin",                          "applicant",      deny(403)],
  ["chat: open the buyer–applicant room from another origin",                          "otherApplicant", deny(403)],
  // chat: send a message as oneself in the buyer–applicant room
  ["chat: send a message as oneself in the buyer–applicant room",                      "visitor",        deny(401, "Please log in to start a conversation")],
  ["chat: send a message as oneself in the buyer–applicant room",                      "stranger",       deny(403)],
  ["chat: send a message as oneself in the buyer–applicant room",                      "buyer",          ALLOW],
  ["chat: send a message as oneself in the buyer–applicant room",                      "applicant",      ALLOW],
  ["chat: send a message as oneself in the buyer–applicant room",                      "otherApplicant", deny(403)],
  // chat: send a message in the name of the other participant
  ["chat: send a message in the name of the other participant",                        "visitor",        deny(401, "Please log in to start a conversation")],
  ["chat: send a message in the name of the other participant",                        "stranger",       deny(403)],
  ["chat: send a message in the name of the other participant",                        "buyer",          deny(4403)],
  ["chat: send a message in the name of the other participant",                        "applicant",      deny(4403)],
  ["chat: send a message in the name of the other participant",                        "otherApplicant", deny(403)],
  // chat: send a message addressed to a third user (the other applicant)
  ["chat: send a message addressed to a third user (the other applicant)",             "visitor",        deny(401, "Please log in to start a conversation")],
  ["chat: send a message addressed to a third user (the other applicant)",             "stranger",       deny(403)],
  ["chat: send a message addressed to a third user (the other applicant)",             "buyer",          deny(4403)],
  ["chat: send a message addressed to a third user (the other applicant)",             "applicant",      deny(4403)],
  ["chat: send a message addressed to a third user (the other applicant)",             "otherApplicant", deny(403)],
  // push users: edit own profile (bio)
  ["push users: edit own profile (bio)",                                               "visitor",        deny(401)],
  ["push users: edit own profile (bio)",                                               "stranger",       ALLOW],
  ["push users: edit own profile (bio)",                                               "buyer",          ALLOW],
  ["push users: edit own profile (bio)",                                               "applicant",      ALLOW],
  ["push users: edit own profile (bio)",                                               "otherApplicant", ALLOW],
  // push users: edit the buyer's profile (bio)
  ["push users: edit the buyer's profile (bio)",                                       "visitor",        deny(401)],
  ["push users: edit the buyer's profile (bio)",                                       "stranger",       DENY],
  ["push users: edit the buyer's profile (bio)",                                       "buyer",          ALLOW],
  ["push users: edit the buyer's profile (bio)",                                       "applicant",      DENY],
  ["push users: edit the buyer's profile (bio)",                                       "otherApplicant", DENY],
  // push users: set own stripeAccountId
  ["push users: set own stripeAccountId",                                              "visitor",        deny(401)],
  ["push users: set own stripeAccountId",                                              "stranger",       DENY],
  ["push users: set own stripeAccountId",                                              "buyer",          DENY],
  ["push users: set own stripeAccountId",                                              "applicant",      DENY],
  ["push users: set own stripeAccountId",                                              "otherApplicant", DENY],
  // push users: change own email
  ["push users: change own email",                                                     "visitor",        deny(401)],
  ["push users: change own email",                                                     "stranger",       DENY],
  ["push users: change own email",                                                     "buyer",          DENY],
  ["push users: change own email",                                                     "applicant",      DENY],
  ["push users: change own email",                                                     "otherApplicant", DENY],
  // push users: delete own account
  ["push users: delete own account",                                                   "visitor",        deny(401)],
  ["push users: delete own account",                                                   "stranger",       DENY],
  ["push users: delete own account",                                                   "buyer",          DENY],
  ["push users: delete own account",                                                   "applicant",      DENY],
  ["push users: delete own account",                                                   "otherApplicant", DENY],
  // push users: create a user record
  ["push users: create a user record",                                                 "visitor",        deny(401)],
  ["push users: create a user record",                                                 "stranger",       DENY],
  ["push users: create a user record",                                                 "buyer",          DENY],
  ["push users: create a user record",                                                 "applicant",      DENY],
  ["push users: create a user record",                                                 "otherApplicant", DENY],
  // push gigs: create a gig
  ["push gigs: create a gig",                                                          "visitor",        deny(401)],
  ["push gigs: create a gig",                                                          "stranger",       ALLOW],
  ["push gigs: create a gig",                                                          "buyer",          ALLOW],
  ["push gigs: create a gig",                                                          "applicant",      ALLOW],
  ["push gigs: create a gig",                                                          "otherApplicant", ALLOW],
  // push gigs: create a gig in the buyer’s name (createdBy)
  ["push gigs: create a gig in the buyer’s name (createdBy)",                          "visitor",        deny(401)],
  ["push gigs: create a gig in the buyer’s name (createdBy)",                          "stranger",       DENY],
  ["push gigs: create a gig in the buyer’s name (createdBy)",                          "buyer",          ALLOW],
  ["push gigs: create a gig in the buyer’s name (createdBy)",                          "applicant",      DENY],
  ["push gigs: create a gig in the buyer’s name (createdBy)",                          "otherApplicant", DENY],
  // push gigs: edit the buyer's gig (no offer accepted)
  ["push gigs: edit the buyer's gig (no offer accepted)",                              "visitor",        deny(401)],
  ["push gigs: edit the buyer's gig (no offer accepted)",                              "stranger",       DENY],
  ["push gigs: edit the buyer's gig (no offer accepted)",                              "buyer",          ALLOW],
  ["push gigs: edit the buyer's gig (no offer accepted)",                              "applicant",      DENY],
  ["push gigs: edit the buyer's gig (no offer accepted)",                              "otherApplicant", DENY],
  // push gigs: delete the buyer's gig (no work under way)
  ["push gigs: delete the buyer's gig (no work under way)",                            "visitor",        deny(401)],
  ["push gigs: delete the buyer's gig (no work under way)",                            "stranger",       deny(undefined, "You do not have permission to delete this gig.")],
  ["push gigs: delete the buyer's gig (no work under way)",                            "buyer",          ALLOW],
  ["push gigs: delete the buyer's gig (no work under way)",                            "applicant",      deny(undefined, "You do not have permission to delete this gig.")],
  ["push gigs: delete the buyer's gig (no work under way)",                            "otherApplicant", deny(undefined, "You do not have permission to delete this gig.")],
  // push gigs: edit the buyer's gig once an offer was accepted
  ["push gigs: edit the buyer's gig once an offer was accepted",                       "visitor",        deny(401)],
  ["push gigs: edit the buyer's gig once an offer was accepted",                       "stranger",       DENY],
  ["push gigs: edit the buyer's gig once an offer was accepted",                       "buyer",          DENY],
  ["push gigs: edit the buyer's gig once an offer was accepted",                       "applicant",      DENY],
  ["push gigs: edit the buyer's gig once an offer was accepted",                       "otherApplicant", DENY],
  // push gigs: delete the buyer's gig while work is under way
  ["push gigs: delete the buyer's gig while work is under way",                        "visitor",        deny(401)],
  ["push gigs: delete the buyer's gig while work is under way",                        "stranger",       deny(undefined, "You do not have permission to delete this gig.")],
  ["push gigs: delete the buyer's gig while work is under way",                        "buyer",          deny(undefined, "Work on this gig is under way. Complete the work before deleting the gig.")],
  ["push gigs: delete the buyer's gig while work is under way",                        "applicant",      deny(undefined, "You do not have permission to delete this gig.")],
  ["push gigs: delete the buyer's gig while work is under way",                        "otherApplicant", deny(undefined, "You do not have permission to delete this gig.")],
  // push applications: send an offer (PENDING → PENDING_ACCEPTANCE)
  ["push applications: send an offer (PENDING → PENDING_ACCEPTANCE)",                  "visitor",        deny(401)],
  ["push applications: send an offer (PENDING → PENDING_ACCEPTANCE)",                  "stranger",       DENY],
  ["push applications: send an offer (PENDING → PENDING_ACCEPTANCE)",                  "buyer",          ALLOW],
  ["push applications: send an offer (PENDING → PENDING_ACCEPTANCE)",                  "applicant",      deny(undefined, "Only the creator of this gig can send offers.")],
  ["push applications: send an offer (PENDING → PENDING_ACCEPTANCE)",                  "otherApplicant", DENY],
  // push applications: Start Working / accept (PENDING_ACCEPTANCE → PENDING_PAYMENT)
  ["push applications: Start Working / accept (PENDING_ACCEPTANCE → PENDING_PAYMENT)", "visitor",        deny(401)],
  ["push applications: Start Working / accept (PENDING_ACCEPTANCE → PENDING_PAYMENT)", "stranger",       DENY],
  ["push applications: Start Working / accept (PENDING_ACCEPTANCE → PENDING_PAYMENT)", "buyer",          deny(undefined, "Only the applicant can accept or decline this offer.")],
  ["push applications: Start Working / accept (PENDING_ACCEPTANCE → PENDING_PAYMENT)", "applicant",      ALLOW],
  ["push applications: Start Working / accept (PENDING_ACCEPTANCE → PENDING_PAYMENT)", "otherApplicant", DENY],
  // push applications: decline (PENDING_ACCEPTANCE → REJECTED)
  ["push applications: decline (PENDING_ACCEPTANCE → REJECTED)",                       "visitor",        deny(401)],
  ["push applications: decline (PENDING_ACCEPTANCE → REJECTED)",                       "stranger",       DENY],
  ["push applications: decline (PENDING_ACCEPTANCE → REJECTED)",                       "buyer",          deny(undefined, "Only the applicant can accept or decline this offer.")],
  ["push applications: decline (PENDING_ACCEPTANCE → REJECTED)",                       "applicant",      ALLOW],
  ["push applications: decline (PENDING_ACCEPTANCE → REJECTED)",                       "otherApplicant", DENY],
  // push applications: confirm payment (PENDING_PAYMENT → IN_PROGRESS)
  ["push applications: confirm payment (PENDING_PAYMENT → IN_PROGRESS)",               "visitor",        deny(401)],
  ["push applications: confirm payment (PENDING_PAYMENT → IN_PROGRESS)",               "stranger",       DENY],
  ["push applications: confirm payment (PENDING_PAYMENT → IN_PROGRESS)",               "buyer",          DENY],
  ["push applications: confirm payment (PENDING_PAYMENT → IN_PROGRESS)",               "applicant",      DENY],
  ["push applications: confirm payment (PENDING_PAYMENT → IN_PROGRESS)",               "otherApplicant", DENY],
  // push applications: complete (IN_PROGRESS → COMPLETED)
  ["push applications: complete (IN_PROGRESS → COMPLETED)",                            "visitor",        deny(401)],
  ["push applications: complete (IN_PROGRESS → COMPLETED)",                            "stranger",       DENY],
  ["push applications: complete (IN_PROGRESS → COMPLETED)",                            "buyer",          DENY],
  ["push applications: complete (IN_PROGRESS → COMPLETED)",                            "applicant",      DENY],
  ["push applications: complete (IN_PROGRESS → COMPLETED)",                            "otherApplicant", DENY],
  // push applications: change the amount of a sent offer
  ["push applications: change the amount of a sent offer",                             "visitor",        deny(401)],
  ["push applications: change the amount of a sent offer",                             "stranger",       DENY],
  ["push applications: change the amount of a sent offer",                             "buyer",          DENY],
  ["push applications: change the amount of a sent offer",                             "applicant",      DENY],
  ["push applications: change the amount of a sent offer",                             "otherApplicant", DENY],
  // push applications: change the applicant's offered budget
  ["push applications: change the applicant's offered budget",                         "visitor",        deny(401)],
  ["push applications: change the applicant's offered budget",                         "stranger",       DENY],
  ["push applications: change the applicant's offered budget",                         "buyer",          DENY],
  ["push applications: change the applicant's offered budget",                         "applicant",      DENY],
  ["push applications: change the applicant's offered budget",                         "otherApplicant", DENY],
  // push applications: reopen a declined application (REJECTED → PENDING)
  ["push applications: reopen a declined application (REJECTED → PENDING)",            "visitor",        deny(401)],
  ["push applications: reopen a declined application (REJECTED → PENDING)",            "stranger",       DENY],
  ["push applications: reopen a declined application (REJECTED → PENDING)",            "buyer",          DENY],
  ["push applications: reopen a declined application (REJECTED → PENDING)",            "applicant",      DENY],
  ["push applications: reopen a declined application (REJECTED → PENDING)",            "otherApplicant", DENY],
  // push applications: delete an application
  ["push applications: delete an application",                                         "visitor",        deny(401)],
  ["push applications: delete an application",                                         "stranger",       DENY],
  ["push applications: delete an application",                                         "buyer",          DENY],
  ["push applications: delete an application",                                         "applicant",      DENY],
  ["push applications: delete an application",                                         "otherApplicant", DENY],
  // push notifications: mark the buyer's notification read
  ["push notifications: mark the buyer's notification read",                           "visitor",        deny(401)],
  ["push notifications: mark the buyer's notification read",                           "stranger",       DENY],
  ["push notifications: mark the buyer's notification read",                           "buyer",          ALLOW],
  ["push notifications: mark the buyer's notification read",                           "applicant",      DENY],
  ["push notifications: mark the buyer's notification read",                           "otherApplicant", DENY],
  // push notifications: edit the buyer's notification text
  ["push notifications: edit the buyer's notification text",                           "visitor",        deny(401)],
  ["push notifications: edit the buyer's notification text",                           "stranger",       DENY],
  ["push notifications: edit the buyer's notification text",                           "buyer",          DENY],
  ["push notifications: edit the buyer's notification text",                           "applicant",      DENY],
  ["push notifications: edit the buyer's notification text",                           "otherApplicant", DENY],
  // push notifications: delete the buyer's notification
  ["push notifications: delete the buyer's notification",                              "visitor",        deny(401)],
  ["push notifications: delete the buyer's notification",                              "stranger",       DENY],
  ["push notifications: delete the buyer's notification",                              "buyer",          DENY],
  ["push notifications: delete the buyer's notification",                              "applicant",      DENY],
  ["push notifications: delete the buyer's notification",                              "otherApplicant", DENY],
  // push notifications: create a notification for the buyer
  ["push notifications: create a notification for the buyer",                          "visitor",        deny(401)],
  ["push notifications: create a notification for the buyer",                          "stranger",       DENY],
  ["push notifications: create a notification for the buyer",                          "buyer",          DENY],
  ["push notifications: create a notification for the buyer",                          "applicant",      DENY],
  ["push notifications: create a notification for the buyer",                          "otherApplicant", DENY],
  // push conversations: start the buyer–applicant conversation
  ["push conversations: start the buyer–applicant conversation",                       "visitor",        deny(401)],
  ["push conversations: start the buyer–applicant conversation",                       "stranger",       DENY],
  ["push conversations: start the buyer–applicant conversation",                       "buyer",          ALLOW],
  ["push conversations: start the buyer–applicant conversation",                       "applicant",      ALLOW],
  ["push conversations: start the buyer–applicant conversation",                       "otherApplicant", DENY],
  // push conversations: start one with a user no application links
  ["push conversations: start one with a user no application links",                   "visitor",        deny(401)],
  ["push conversations: start one with a user no application links",                   "stranger",       DENY],
  ["push conversations: start one with a user no application links",                   "buyer",          DENY],
  ["push conversations: start one with a user no application links",                   "applicant",      DENY],
  ["push conversations: start one with a user no application links",                   "otherApplicant", DENY],
  // push conversations: start one with oneself
  ["push conversations: start one with oneself",                                       "visitor",        deny(401)],
  ["push conversations: start one with oneself",                                       "stranger",       deny(undefined, "You cannot converse with yourself")],
  ["push conversations: start one with oneself",                                       "buyer",          deny(undefined, "You cannot converse with yourself")],
  ["push conversations: start one with oneself",                                       "applicant",      deny(undefined, "You cannot converse with yourself")],
  ["push conversations: start one with oneself",                                       "otherApplicant", deny(undefined, "You cannot converse with yourself")],
  // push conversations: mark read (the applicant sent the last message)
  ["push conversations: mark read (the applicant sent the last message)",              "visitor",        deny(401)],
  ["push conversations: mark read (the applicant sent the last message)",              "stranger",       DENY],
  ["push conversations: mark read (the applicant sent the last message)",              "buyer",          ALLOW],
  ["push conversations: mark read (the applicant sent the last message)",              "applicant",      DENY],
  ["push conversations: mark read (the applicant sent the last message)",              "otherApplicant", DENY],
  // push conversations: rewrite the last message
  ["push conversations: rewrite the last message",                                     "visitor",        deny(401)],
  ["push conversations: rewrite the last message",                                     "stranger",       DENY],
  ["push conversations: rewrite the last message",                                     "buyer",          DENY],
  ["push conversations: rewrite the last message",                                     "applicant",      DENY],
  ["push conversations: rewrite the last message",                                     "otherApplicant", DENY],
  // push conversations: add a third participant (with a read mark)
  ["push conversations: add a third participant (with a read mark)",                   "visitor",        deny(401)],
  ["push conversations: add a third participant (with a read mark)",                   "stranger",       DENY],
  ["push conversations: add a third participant (with a read mark)",                   "buyer",          DENY],
  ["push conversations: add a third participant (with a read mark)",                   "applicant",      DENY],
  ["push conversations: add a third participant (with a read mark)",                   "otherApplicant", DENY],
  // push conversations: delete the conversation
  ["push conversations: delete the conversation",                                      "visitor",        deny(401)],
  ["push conversations: delete the conversation",                                      "stranger",       DENY],
  ["push conversations: delete the conversation",                                      "buyer",          DENY],
  ["push conversations: delete the conversation",                                      "applicant",      DENY],
  ["push conversations: delete the conversation",                                      "otherApplicant", DENY],
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

/** Where being the stranger is being oneself: the operator is another user, and sees what others see. */
const OPERATOR_UNLIKE_STRANGER: Record<string, Expected> = {
  "pull users: the stranger's profile": DENY,
};

/**
 * The operator (OPERATOR_EMAILS, decision 031) is a stranger to the gig: everything outside the
 * operator area goes for them as for the stranger.
 */
const OPERATOR_AS_STRANGER: readonly Cell[] = MEMBER_CELLS.filter(([, role]) => role === 'stranger').map(
  ([action, , expected]) => [action, 'operator', OPERATOR_UNLIKE_STRANGER[action] ?? expected] as const,
);

const NOT_FOUND = deny(404, 'Not found');
const APP_NOT_FOUND = deny(404, 'Application not found');

// Issue 15 (decision 031): delivery, cancellation, disputes and the operator area.
// prettier-ignore
const WORK_CELLS: readonly Cell[] = [
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

export const MATRIX: readonly Cell[] = [...MEMBER_CELLS, ...OPERATOR_AS_STRANGER, ...WORK_CELLS];
