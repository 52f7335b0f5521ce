import { deviceTransaction, deviceUserId } from './device-session';

/**
 * Whose notifications this device's push subscription carries, beside the signed-in user in the
 * device's records (device-session.ts): the user the server last accepted a subscribe from here.
 * The service worker keeps the subscription when a push sent to a previous user of the device
 * arrives after the signed-in user turned notifications on (decision 030, point 8). Apart from
 * device-session.ts so that the public pages' entry does not carry it.
 */

const PUSH_USER_KEY = 'push-user';

/** Records the user the subscription now carries the notifications of; null once turned off or forgotten. */
export async function setPushUser(userId: string | null): Promise<void> {
  await deviceTransaction('readwrite', (store) => {
    if (userId) store.put(userId, PUSH_USER_KEY);
    else store.delete(PUSH_USER_KEY);
  });
}

/** The user this device's push subscription was last turned on for, or null. */
export function pushUser(): Promise<string | null> {
  return deviceUserId(PUSH_USER_KEY);
}
