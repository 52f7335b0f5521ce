import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { REPLICATED_COLLECTIONS, type ReplicatedName } from '../../client/data/collections';
import { databaseName } from '../../client/data/database';
import { applicationIdFor } from '../../shared/ids';
import { goOffline, goOnline, signedInContext, waitForServiceWorker, waitUpToDate } from '../support/browser';
import { gigDoc, person, push } from '../support/fixtures';
import type { TestServer } from '../support/in-process-server';
import { waitFor } from '../support/wait';
import { useServerAndBrowser } from '../support/e2e';

let server: TestServer;
let browser: Browser;
useServerAndBrowser((s, b) => ([server, browser] = [s, b]));

/** The documents of one collection this page's database holds, read straight from IndexedDB (RxDB's Dexie storage). */
function storedDocs(page: Page, userId: string, collection: ReplicatedName): Promise<Record<string, unknown>[]> {
  return page.evaluate(
    async (name) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open(name);
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      try {
        return await new Promise<Record<string, unknown>[]>((resolve, reject) => {
          const req = db.transaction('docs').objectStore('docs').getAll();
          req.onsuccess = () => resolve(req.result as Record<string, unknown>[]);
          req.onerror = () => reject(req.error);
        });
      } finally {
        db.close();
      }
    },
    `rxdb-dexie-${databaseName(userId)}--${REPLICATED_COLLECTIONS[collection].version}--${collection}`,
  );
}

describe('sync integrity', () => {
  it('ids named after built-in object members: a new browser still gets every gig, and says up to date only once it has them (issue 18)', async () => {
    const buyer = await person(server.url, { name: 'Bulk Buyer' });
    const legit: string[] = [];
    const pushGigs = async (n: number) => {
      const rows = Array.from({ length: n }, (_, i) => ({
        assumedMasterState: null,
        newDocumentState: { _deleted: false, ...gigDoc({ title: `Seeded gig ${legit.length + i}` }) },
      }));
      const res = await push(buyer.http, 'gigs', rows);
      expect(res.status).toBe(200);
      expect(res.body.refused).toEqual([]);
      legit.push(...rows.map((r) => String((r.newDocumentState as { id?: unknown }).id)));
    };
    for (let i = 0; i < 10; i++) await pushGigs(50);
    // Written before the id rule existed (straight into the store, past the checks it now makes).
    const poisoned = ['toString', 'constructor', 'hasOwnProperty'];
    await server.ctx.store.commit(
      poisoned.map((id) => ({
        collection: 'gigs',
        doc: { ...gigDoc({ id, title: `Poisoned ${id}`, createdBy: buyer.user.id }), _deleted: false },
      })),
    );
    for (let i = 0; i < 10; i++) await pushGigs(50);

    const viewer = await person(server.url, { name: 'New Device' });
    const { context, page } = await signedInContext(browser, server.url, viewer.http);
    await page.goto(server.url + '/landing');
    await waitUpToDate(page, 25_000);
    const stored = (await storedDocs(page, viewer.user.id, 'gigs')).map((d) => String(d.id));
    expect(stored.length).toBe(legit.length);
    expect(new Set(stored)).toEqual(new Set(legit));
    await context.close();
  });

  it("the same user applies on two devices: the second device's application is kept as a sync problem with Copy, the first stays (issue 21)", async () => {
    const buyer = await person(server.url, { name: 'Bea Buyer' });
    const gig = (
      await push(buyer.http, 'gigs', [
        { assumedMasterState: null, newDocumentState: { _deleted: false, ...gigDoc({ title: 'Two-device mural' }) } },
      ])
    ).body.conflicts[0]!;
    const seller = await person(server.url, { name: 'Sam Seller' });
    const deviceA = await signedInContext(browser, server.url, seller.http);
    const deviceB = await signedInContext(browser, server.url, seller.http);
    await deviceB.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });

    const openGig = async (page: Page) => {
      await page
        .getByRole('listitem')
        .filter({ hasText: 'Two-device mural' })
        .getByRole('button', { name: 'Two-device mural' })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Two-device mural' });
      await dialog.waitFor();
      return dialog;
    };

    // B has the gig, then loses the network.
    await deviceB.page.goto(server.url + '/landing');
    await waitUpToDate(deviceB.page);
    await waitForServiceWorker(deviceB.page);
    await goOffline(deviceB.context);

    // B, offline, applies with its rate: it waits to sync.
    let dialog = await openGig(deviceB.page);
    await dialog.getByLabel(/Your rate/).fill('600');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.getByText(/waiting to sync/).waitFor();
    await deviceB.page.keyboard.press('Escape');

    // Meanwhile A applies online, and lands first.
    await deviceA.page.goto(server.url + '/landing');
    dialog = await openGig(deviceA.page);
    await dialog.getByLabel(/Your rate/).fill('420');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.getByText('Application submitted successfully!', { exact: false }).waitFor();
    await waitUpToDate(deviceA.page);

    await goOnline(deviceB.context);
    const problem = deviceB.page
      .getByRole('listitem')
      .filter({ hasText: 'Your application from another device was kept; this one was not sent' });
    await problem.waitFor({ timeout: 25_000 });
    await problem.getByRole('button', { name: 'Copy the content' }).click();
    await problem.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await deviceB.page.evaluate(() => navigator.clipboard.readText())).toContain('C$600.00');

    // A's application is the one kept, on the server and on both devices.
    const id = applicationIdFor(gig.id as string, seller.user.id);
    expect(server.ctx.store.get('applications', id)).toMatchObject({ budget: 420_00, status: 'PENDING' });
    const onB = await waitFor(
      "A's application on device B",
      async () => {
        const docs = await storedDocs(deviceB.page, seller.user.id, 'applications');
        return docs.find((d) => d.id === id && d.budget === 420_00);
      },
      20_000,
    );
    expect(onB).toMatchObject({ status: 'PENDING' });
    await deviceA.context.close();
    await deviceB.context.close();
  });
});
