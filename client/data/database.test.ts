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

describe('a device holding data from before openings (decision 014)', () => {
  it('opens its version 0 gigs and applications with the new schemas, keeping every document as it was', async () => {
    const storage = wrappedValidateAjvStorage({ storage: getRxStorageMemory() });
    const userId = 'user-migrate-1';
    // The collections as version 0 had them: no openings or filledAt on gigs, no CLOSED status.
    const { REPLICATED_COLLECTIONS } = await import('./collections');
    const { createRxDatabase } = await import('rxdb');
    const { databaseName } = await import('./database');
    const gigV0 = { ...REPLICATED_COLLECTIONS.gigs, version: 0, properties: { ...REPLICATED_COLLECTIONS.gigs.properties } } as Record<string, unknown> & { properties: Record<string, unknown> };
    delete gigV0.properties.openings;
    delete gigV0.properties.filledAt;
    const appStatus = REPLICATED_COLLECTIONS.applications.properties.status as { enum: readonly string[] };
    const appV0 = {
      ...REPLICATED_COLLECTIONS.applications,
      version: 0,
      properties: { ...REPLICATED_COLLECTIONS.applications.properties, status: { ...appStatus, enum: appStatus.enum.filter((s) => s !== 'CLOSED') } },
    };
    const old = await createRxDatabase({ name: databaseName(userId), storage, multiInstance: false });
    const collections = await old.addCollections({ gigs: { schema: gigV0 as never }, applications: { schema: appV0 as never } });
    const gig = {
      id: 'gig-old0001', title: 'Old gig', description: 'From before', category: 'Writing', locationType: 'remote', budget: '100', isPassionDriven: false,
      currency: 'CAD', skills: 'Editing', projectDeadline: '2030-01-01', createdAt: 5, createdBy: 'user-abcdef', creatorName: 'Ada', status: 'active', updatedAt: 5, sortKey: 1,
    };
    await collections.gigs.insert(gig);
    await old.close();

    const db = await createAppDatabase(userId, storage, { multiInstance: false });
    const migrated = (await db.gigs.findOne('gig-old0001').exec())?.toJSON();
    expect(migrated).toMatchObject(gig);
    expect(migrated).not.toHaveProperty('openings');
    await db.close();
  });
});
