import { createRxDatabase, type RxCollection, type RxDatabase, type RxJsonSchema, type RxStorage } from 'rxdb';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { afterEach, describe, expect, it } from 'vitest';
import { olderPullsRefused } from './pull-versions';

type Doc = { id: string; text: string; updatedAt: number };
const schema: RxJsonSchema<Doc> = {
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: { id: { type: 'string', maxLength: 40 }, text: { type: 'string' }, updatedAt: { type: 'number' } },
  required: ['id', 'text', 'updatedAt'],
};

let db: RxDatabase<{ docs: RxCollection<Doc> }> | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
});

async function docs() {
  db = await createRxDatabase<{ docs: RxCollection<Doc> }>({
    name: `versions${Math.random().toString(36).slice(2, 10)}`,
    storage: olderPullsRefused(getRxStorageMemory() as RxStorage<unknown, unknown>),
    multiInstance: false,
  });
  await db.addCollections({ docs: { schema } });
  return db.docs;
}

const stored = async (c: RxCollection<Doc>, id: string) => (await c.storageInstance.findDocumentsById([id], false))[0];

/** A write in `context` (RxDB's pull writes with 'replication-downstream-…') over what is stored. */
async function writeOver(c: RxCollection<Doc>, doc: Doc, context: string) {
  const previous = await stored(c, doc.id);
  return c.storageInstance.bulkWrite(
    [{ document: { ...doc, _deleted: false, _attachments: {}, _rev: `${Date.now()}-x`, _meta: { lwt: Date.now() } }, previous }],
    context,
  );
}

describe("the pull's writes never take a document back to an older version", () => {
  it('an older version from the pull is answered as a conflict and the stored one stays; a newer one is stored', async () => {
    const c = await docs();
    await c.insert({ id: 'a', text: 'acknowledged edit', updatedAt: 200 });
    const refused = await writeOver(c, { id: 'a', text: 'stale copy', updatedAt: 100 }, 'replication-downstream-x');
    expect(refused.error).toMatchObject([{ status: 409, documentId: 'a', documentInDb: { text: 'acknowledged edit' } }]);
    expect((await stored(c, 'a'))!.text).toBe('acknowledged edit');

    const taken = await writeOver(c, { id: 'a', text: 'newer edit', updatedAt: 300 }, 'replication-downstream-x');
    expect(taken.error).toEqual([]);
    expect((await stored(c, 'a'))!.text).toBe('newer edit');
  });

  it('in a batch, only the older rows are refused; new documents and other writers are stored as they come', async () => {
    const c = await docs();
    await c.bulkInsert([
      { id: 'a', text: 'a at 200', updatedAt: 200 },
      { id: 'b', text: 'b at 200', updatedAt: 200 },
    ]);
    const [a, b] = [await stored(c, 'a'), await stored(c, 'b')];
    const row = (doc: Doc, previous: unknown) => ({
      document: { ...doc, _deleted: false, _attachments: {}, _rev: `${Date.now()}-x`, _meta: { lwt: Date.now() } },
      previous: previous as never,
    });
    const result = await c.storageInstance.bulkWrite(
      [
        row({ id: 'a', text: 'a at 100', updatedAt: 100 }, a),
        row({ id: 'b', text: 'b at 200 again', updatedAt: 200 }, b),
        row({ id: 'c', text: 'c is new', updatedAt: 50 }, undefined),
      ],
      'replication-downstream-x',
    );
    expect(result.error.map((e) => [e.documentId, e.status])).toEqual([['a', 409]]);
    expect((await c.find().exec()).map((d) => d.text).sort()).toEqual(['a at 200', 'b at 200 again', 'c is new']);

    // The user's own write (or a push's answer) is not the pull's: stored whatever its time.
    await writeOver(c, { id: 'a', text: 'written here', updatedAt: 10 }, 'rx-document-save-data');
    expect((await stored(c, 'a'))!.text).toBe('written here');
  });
});
