import type { z } from 'zod';
import { applicationSchema } from '../../shared/schemas/application';
import { conversationSchema } from '../../shared/schemas/conversation';
import { gigSchema } from '../../shared/schemas/gig';
import { notificationSchema } from '../../shared/schemas/notification';
import { reviewSchema } from '../../shared/schemas/review';
import { userSchema } from '../../shared/schemas/user';
import type { DocTypes, ReplicatedName } from './collections';

/**
 * Each replicated collection's shared schema: what kept content must be to be stored again.
 * Imported only when it is needed (local-data.ts), so the data layer opens without zod.
 */
export const DOCUMENT_SCHEMAS: { [K in ReplicatedName]: z.ZodType<DocTypes[K]> } = {
  users: userSchema,
  gigs: gigSchema,
  applications: applicationSchema,
  notifications: notificationSchema,
  conversations: conversationSchema,
  reviews: reviewSchema,
};
