import { applicationRxSchema } from '../../shared/schemas/application';
import { conversationRxSchema } from '../../shared/schemas/conversation';
import { gigRxSchema } from '../../shared/schemas/gig';
import { notificationRxSchema } from '../../shared/schemas/notification';
import { reviewRxSchema } from '../../shared/schemas/review';
import { userRxSchema } from '../../shared/schemas/user';

/**
 * Where the device's RxDB schemas come from: each made from its shared zod schema by `toRxSchema`
 * (shared/schemas). Read by the generator (scripts/generate-rx-schemas.ts) and by the test that
 * keeps rx-schemas.generated.ts equal to them; never by the app, which would load zod with it.
 */
export const RX_SCHEMA_SOURCES = {
  userRxSchema,
  gigRxSchema,
  applicationRxSchema,
  notificationRxSchema,
  conversationRxSchema,
  reviewRxSchema,
};
