import { idOf } from '../world';
import { Action, chatSend, openSocket, pairOf, selfOf } from '../cells';

/** The matrix's cells for chat sockets. */
export const CHAT_ACTIONS: Action[] = [
  // --- Chat sockets at /api/chat/:conversationId ----------------------------------------------
  { name: 'chat: open the buyer–applicant room', run: (w, r) => openSocket(w, r, pairOf('buyer', 'applicant')(w, r)) },
  {
    name: 'chat: open the buyer–other-applicant room',
    run: (w, r) => openSocket(w, r, pairOf('buyer', 'otherApplicant')(w, r)),
  },
  {
    name: 'chat: open the applicant–other-applicant room (no application links them)',
    run: (w, r) => openSocket(w, r, pairOf('applicant', 'otherApplicant')(w, r)),
  },
  {
    name: 'chat: open the buyer–stranger room (no application links them)',
    run: (w, r) => openSocket(w, r, pairOf('buyer', 'stranger')(w, r)),
  },
  {
    name: 'chat: open a room with oneself',
    run: (w, r) => openSocket(w, r, `${idOf(w, selfOf(r))}_${idOf(w, selfOf(r))}`),
  },
  {
    name: 'chat: open the buyer–applicant room from another origin',
    run: (w, r) => openSocket(w, r, w.conversationId, 'https://evil.example'),
  },
  { name: 'chat: send a message as oneself in the buyer–applicant room', run: chatSend((w, r) => idOf(w, r)) },
  {
    name: 'chat: send a message in the name of the other participant',
    run: chatSend((w, r) => (r === 'buyer' ? idOf(w, 'applicant') : idOf(w, 'buyer'))),
  },
  {
    name: 'chat: send a message addressed to a third user (the other applicant)',
    run: chatSend(
      (w, r) => idOf(w, r),
      (w) => idOf(w, 'otherApplicant'),
    ),
  },
];
