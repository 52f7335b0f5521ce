/** What other features may use of chat: starting (or finding) a conversation with someone, and what waits to go out. */
export { START_FAILED, startConversation, type StartResult } from './start-conversation';

export type { WaitingInRoom } from './waiting-messages';

/**
 * Chat messages written on this device that have not gone out yet, per conversation. Loads Yjs
 * on demand, with the chat screen's chunk that holds it anyway, so the features that ask (the
 * sync panel, logout) do not carry it.
 */
export async function waitingChatMessages(userId: string): Promise<import('./waiting-messages').WaitingInRoom[]> {
  const { waitingMessages } = await import('./exchange-page');
  return waitingMessages(userId);
}

/** Sends the chat messages waiting on this device, until `deadline`: how many are still waiting then. */
export async function sendWaitingChatMessages(userId: string, deadline: number): Promise<number> {
  const { sendWaitingMessages } = await import('./exchange-page');
  return sendWaitingMessages(userId, deadline);
}
