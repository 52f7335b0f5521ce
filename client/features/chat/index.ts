/** What other features may use of chat: starting (or finding) a conversation with someone. */
export { START_FAILED, startConversation, type StartResult } from './start-conversation';
