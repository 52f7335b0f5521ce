import { LIMITS } from '../constants';
import { sanitizeText } from '../text';

/** Not in docs/product.md, which bounds no message; LIMITS.messageMax is the project's bound. */
export const MESSAGE_TOO_LONG = `Message must be at most ${LIMITS.messageMax} characters`;

/**
 * "An empty or whitespace-only message is not sent" (docs/product.md §5): silently, so no error text.
 * What is sent is the sanitised (decision 013), trimmed text; its length (UTF-16 units, as the
 * textarea's maxLength counts) must be within LIMITS.messageMax.
 */
export function checkMessage(
  text: string,
): { ok: true; content: string } | { ok: false; error?: typeof MESSAGE_TOO_LONG } {
  const content = sanitizeText(text).trim();
  if (!content) return { ok: false };
  if (content.length > LIMITS.messageMax) return { ok: false, error: MESSAGE_TOO_LONG };
  return { ok: true, content };
}

export function isSendableMessage(text: string): boolean {
  return checkMessage(text).ok;
}
