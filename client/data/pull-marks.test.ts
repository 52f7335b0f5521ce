import { createRxDatabase, defaultHashSha256, type RxCollection, type RxDatabase, type RxStorage } from 'rxdb';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { afterEach, describe, expect, it } from 'vitest';
import { keepPullMarks, pulledUnchanged } from './pull-marks';
import { noteSchema as schema, type Note } from '../../tests/support/notes';

let db: RxDatabase<{ notes: RxCollection<Note> }> | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
});

async function notes() {
  db = await createRxDatabase<{ notes: RxCollection<Note> }>({
    name: `marks${Math.random().toString(36).slice(2, 10)}`,
    storage: keepPullMarks(getRxStorageMemory() as RxStorage<unknown, unknown>, defaultHashSha256),
    hashFunction: defaultHashSha256,
    multiInstance: false,
  });
  await db.addCollections({ notes: { schema } });
  return db.notes;
}

const ourMark = () => defaultHashSha256('rxdbreplicationgigs-sync-notes-v1');

/** A write as RxDB's pull makes it (its context), through the collection's storage. */
function pullWrite(collection: RxCollection<Note>, doc: Note, previous?: unknown) {
  return collection.storageInstance.bulkWrite(
    [{ document: { ...doc, _deleted: false, _attachments: {}, _rev: '', _meta: { lwt: 1 } }, previous: previous as never }],
    'replication-downstream-abc',
  );
}

describe('the pull marks on a device', () => {
  it("a document the pull inserts keeps the pull's mark: this replication's hash and the height of its revision", async () => {
    const collection = await notes();
    await pullWrite(collection, { id: 'a', text: 'from the server' });
    const [stored] = await collection.storageInstance.findDocumentsById(['a'], false);
    expect(stored!._meta).toMatchObject({ o: { _rev: 1, hash: await ourMark() } });
    expect(await pulledUnchanged(collection as unknown as RxCollection, ['a'])).toEqual(new Set(['a']));
  });

  it('a document written on the device, or changed on it after the pull, is not taken for the pull’s', async () => {
    const collection = await notes();
    await collection.insert({ id: 'mine', text: 'written here' });
    await pullWrite(collection, { id: 'pulled', text: 'from the server' });
    const doc = await collection.findOne('pulled').exec();
    await doc!.incrementalPatch({ text: 'changed here' });
    const [mine] = await collection.storageInstance.findDocumentsById(['mine'], false);
    expect((mine!._meta as { o?: unknown }).o).toBeUndefined();
    expect(await pulledUnchanged(collection as unknown as RxCollection, ['mine', 'pulled', 'unknown'])).toEqual(new Set());
  });

  it("a later pull of a stored document marks its new revision", async () => {
    const collection = await notes();
    await pullWrite(collection, { id: 'a', text: 'first' });
    const [first] = await collection.storageInstance.findDocumentsById(['a'], false);
    await pullWrite(collection, { id: 'a', text: 'second' }, first);
    const [second] = await collection.storageInstance.findDocumentsById(['a'], false);
    expect(second!.text).toBe('second');
    expect(second!._meta).toMatchObject({ o: { _rev: 2 } });
    expect(await pulledUnchanged(collection as unknown as RxCollection, ['a'])).toEqual(new Set(['a']));
  });
});
