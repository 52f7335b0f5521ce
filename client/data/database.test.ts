import { addRxPlugin } from 'rxdb';
import { RxDBDevModePlugin } from 'rxdb/plugins/dev-mode';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { wrappedValidateAjvStorage } from 'rxdb/plugins/validate-ajv';
import { describe, expect, it } from 'vitest';
import { createAppDatabase } from './database';

addRxPlugin(RxDBDevModePlugin);

describe('the local database', () => {
  it('accepts the shared schemas under dev-mode checks and validates documents against them', async () => {
    const db = await createAppDatabase('user-test-1', wrappedValidateAjvStorage({ storage: getRxStorageMemory() }), { multiInstance: false });
    await db.gigs.insert({
      id: 'gig-abcdef1',
      title: 'Poster',
      description: 'A poster',
      category: 'Visual Art',
      locationType: 'remote',
      budget: '100',
      isPassionDriven: false,
      currency: 'CAD',
      skills: 'Drawing',
      projectDeadline: '2030-01-01',
      createdAt: 1,
      createdBy: 'user-abcdef',
      creatorName: 'Ada',
      status: 'active',
      updatedAt: 1,
    });
    expect(await db.gigs.count().exec()).toBe(1);
    await expect(db.gigs.insert({ id: 'gig-abcdef2', title: 'x'.repeat(101) } as never)).rejects.toThrow();
    await db.close();
  });
});
