import { z } from 'zod';
import { CURRENCY_CODES, LIMITS, NOTIFICATION_TYPES } from '../constants';
import { idSchema, minorUnitsSchema, timestampSchema, toRxSchema, userText } from './common';

/**
 * docs/product.md §3 Notification in its one canonical shape: `read: boolean` and `createdAt`
 * (docs/product.md §10). `normalizeNotification` accepts the other readings on input.
 */
export const notificationSchema = z.object({
  id: z.string().max(200),
  userId: idSchema,
  type: z.enum(NOTIFICATION_TYPES),
  message: userText(1000),
  senderId: idSchema.optional(),
  senderName: userText(LIMITS.nameMax).optional(),
  recipientName: userText(LIMITS.nameMax).optional(),
  gigId: idSchema.optional(),
  gigTitle: userText(LIMITS.titleMax).optional(),
  applicationId: z.string().max(140).optional(),
  conversationId: z.string().max(140).optional(),
  finalBudget: minorUnitsSchema.optional(),
  amount: minorUnitsSchema.optional(),
  currency: z.enum(CURRENCY_CODES).optional(),
  read: z.boolean(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type Notification = z.infer<typeof notificationSchema>;

const rx = toRxSchema(notificationSchema, {
  // Version 1: the type is any short text on the device (the server decides which types exist,
  // and a type added later needs no new version: an unknown type gets the default icon).
  version: 1,
  indexes: ['createdAt'],
});
export const notificationRxSchema = {
  ...rx,
  properties: { ...rx.properties, type: { type: 'string', maxLength: 64 } },
};

/** Reads either marker (`read` flag or `status: 'unread'`) and either time field (`createdAt` or `timestamp`). */
export function normalizeNotification(raw: Record<string, unknown>): Record<string, unknown> {
  const { status, timestamp, ...rest } = raw;
  const out: Record<string, unknown> = { ...rest };
  if (typeof out.read !== 'boolean') out.read = status === undefined ? false : status !== 'unread';
  if (typeof out.createdAt !== 'number' && typeof timestamp === 'number') out.createdAt = timestamp;
  return out;
}
