import { ALLOW, deny, type Cell } from './cell';

/** The chat socket: which rooms a role may open, and what it may send in them. */
// prettier-ignore
export const CHAT_CELLS: readonly Cell[] = [
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
];
