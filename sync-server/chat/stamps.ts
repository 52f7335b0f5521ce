import * as encoding from 'lib0/encoding';
import * as Y from 'yjs';
import { CHAT_STAMPS_MAP } from '../../shared/chat-doc';

/**
 * The Yjs update that writes `stamps` (message id → server time) into a room's `stamps` map as
 * the Yjs client `client`, whose next clock in the room is `clock`, WITHOUT touching the room:
 * a decision that may be taken again (another instance appended first) must leave no trace
 * until its entry is in the log. Each stamp is a new key, so its item leans on nothing but the
 * root map (no origins): Yjs's own items write themselves, framed as an update of one client
 * (Yjs's update format v1, as `writeClientsStructs` frames them) with no deletions. Building
 * it in a scratch document instead would cost a new Y.Doc per decision, several times the rest.
 */
/**
 * The `stamps` map as the items of a stamp update name their parent: the root map of a document
 * of its own, made once and never changed. An item written with a root parent and no origins
 * writes that root's name; it is never integrated here.
 */
const STAMPS_ROOT = new Y.Doc().getMap(CHAT_STAMPS_MAP);

export function stampUpdate(client: number, clock: number, stamps: readonly (readonly [string, number])[]): Uint8Array {
  const encoder = new Y.UpdateEncoderV1();
  const out = encoder.restEncoder;
  encoding.writeVarUint(out, stamps.length > 0 ? 1 : 0); // clients
  if (stamps.length > 0) {
    encoding.writeVarUint(out, stamps.length); // structs of this client
    encoder.writeClient(client);
    encoding.writeVarUint(out, clock); // the first one's clock
    stamps.forEach(([id, time], i) => {
      const item = new Y.Item(
        Y.createID(client, clock + i),
        null,
        null,
        null,
        null,
        STAMPS_ROOT,
        id,
        new Y.ContentAny([time]),
      );
      item.write(encoder, 0);
    });
  }
  encoding.writeVarUint(out, 0); // delete set: no client
  return encoder.toUint8Array();
}
