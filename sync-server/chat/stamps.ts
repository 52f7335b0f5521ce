import * as Y from 'yjs';
import { CHAT_STAMPS_MAP } from '../../shared/chat-doc';

/**
 * The Yjs update that writes `stamps` (message id → server time) into a room's `stamps` map as
 * the Yjs client `client`, whose next clock in the room is `clock`, WITHOUT touching the room:
 * a decision that may be taken again (another instance appended first) must leave no trace
 * until its entry is in the log. Each stamp is a new key, so its item leans on nothing but the
 * root map; the update carries only these items and no deletions.
 *
 * The stamps are written in a scratch document told that `client` already wrote `clock` items
 * (a placeholder item, never encoded): Yjs numbers the new items from there. The placeholder is
 * not marked deleted, so the update's delete set stays empty (a GC placeholder would delete the
 * server's earlier stamps wherever the update is applied).
 */
export function stampUpdate(client: number, clock: number, stamps: readonly (readonly [string, number])[]): Uint8Array {
  const scratch = new Y.Doc({ gc: false });
  scratch.clientID = client;
  if (clock > 0)
    scratch.store.clients.set(client, [
      new Y.Item(Y.createID(client, 0), null, null, null, null, null, null, new Y.ContentDeleted(clock)),
    ]);
  const map = scratch.getMap<number>(CHAT_STAMPS_MAP);
  scratch.transact(() => {
    for (const [id, time] of stamps) map.set(id, time);
  });
  const update = Y.encodeStateAsUpdate(scratch, Y.encodeStateVector(new Map([[client, clock]])));
  scratch.destroy();
  return update;
}
