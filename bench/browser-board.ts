import { NICHES, COUNTRIES } from '../shared/constants';
import type { DocWrite } from '../sync-server/store/store';
import fs from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { goOffline, waitUpToDate } from '../tests/support/browser';
import { signUp } from '../tests/support/fixtures';
import { TestClient } from '../tests/support/http-client';
import { startTestServer } from '../tests/support/in-process-server';
import { LOAD_ENV, startChildServer } from '../tests/support/spawn-server';
import { generateDataDir } from './data/generate';
import { DEFAULT_GIGS as DEMO_GIGS, DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo';
import { benchChatTyping } from './browser-chat';
import { ensureBuilt } from './support/build';
import { timedSteps } from './support/frames';
import { launchFreshProfile } from './support/fresh-profile';
import { tempDataDir } from './support/datasets';
import { runStandalone } from './support/cli';
import { percentile, type Report, type Row } from './report';

/**
 * Issue 8, item 6, with issue 20's raised targets: headless Chromium with 10k gigs in IndexedDB.
 * - The first sync of the 10k gigs, target ≤ 1.5 s, and the first gigs drawn within 500 ms of the
 *   first pulled batch.
 * - Offline reload to the first 50 gigs drawn (the app's `board:first-50` mark: from the board's
 *   copy while the database opens, decision 033), median ≤ 150 ms and p95 ≤ 250 ms, and to the
 *   whole board usable (`board:complete`), target ≤ 1 s; 7 reloads.
 * - Filter and tab changes until the next frame is drawn, p95 of 40, target ≤ 50 ms; the same for
 *   the order by best rated buyers and the minimum buyer rating (issue 16), over 400 rated buyers.
 * - The demo account's first visit to four screens: no task over 100 ms while the first sync runs,
 *   and the screen's first card of data drawn before the status says up to date.
 * - A keystroke on the chat screen of a 500-message conversation to the next frame (browser-chat.ts).
 * The browser is the tests' (tests/support/browser.ts: DEVELOPERS.md's flags, CHROMIUM_PATH
 * overrides the path), each new device a fresh profile on disk (support/fresh-profile.ts), the
 * server the integration tests' (tests/support/in-process-server.ts).
 */
const GIGS = Number(process.env.BENCH_BOARD_GIGS ?? 10_000);
const RELOADS = 7;
/** What the search benchmark types into the board's search box, a keystroke at a time. */
const SEARCH_TYPED = 'music project number 12';
const CHANGES = 40;

/** Buyers the gigs are spread over, each with a public profile and a reputation (decision 032). */
const CREATORS = 400;

function creatorOf(i: number): { id: string; name: string } {
  return { id: `benchbuyer${String(i % CREATORS).padStart(5, '0')}`, name: `Bench Buyer ${i % CREATORS}` };
}

/** The creators' public profiles: most rated as buyers (1 to 40 reviews, averages 2.0 to 5.0), some not yet. */
function creatorWrites(now: number): DocWrite[] {
  return Array.from({ length: CREATORS }, (_, i) => {
    const { id, name } = creatorOf(i);
    const reviews = i % 5 === 0 ? 0 : 1 + (i % 40);
    return {
      collection: 'users' as const,
      doc: {
        id,
        name,
        username: `benchbuyer${i}`,
        location: 'CA',
        creativeNiche: 'visual_art',
        subcategory: 'Illustration',
        portfolioLink: `https://portfolio.example.com/benchbuyer${i}`,
        reputation: {
          freelancerReviews: 0,
          freelancerRatingSum: 0,
          buyerReviews: reviews,
          buyerRatingSum: Math.round(reviews * (2 + ((i * 7) % 31) / 10)),
          completedAsFreelancer: 0,
          completedAsBuyer: reviews,
        },
        updatedAt: now,
        _deleted: false,
      },
    };
  });
}

function gigWrites(count: number, now: number): DocWrite[] {
  const writes: DocWrite[] = [];
  for (let i = 0; i < count; i += 1) {
    const niche = NICHES[i % NICHES.length]!;
    const inPerson = i % 3 === 0;
    const country = COUNTRIES[i % COUNTRIES.length]!;
    const createdAt = now - i * 60_000;
    const creator = creatorOf(i);
    writes.push({
      collection: 'gigs',
      doc: {
        id: `benchgig${String(i).padStart(8, '0')}`,
        title: `${niche.name} project number ${i}`,
        description: `A ${niche.subcategories[i % niche.subcategories.length]} piece for a small studio, with two rounds of changes.`,
        category: niche.name,
        locationType: inPerson ? 'in-person' : 'remote',
        ...(inPerson
          ? { country: country.code, city: 'Springfield', projectDate: '2030-01-01' }
          : { projectDeadline: '2030-01-01' }),
        budget: `${100 + (i % 50) * 10}-${500 + (i % 50) * 20}`,
        isPassionDriven: i % 11 === 0,
        currency: inPerson ? country.currency : 'CAD',
        skills: 'Drawing, Colour, Layout, Print',
        createdAt,
        createdBy: creator.id,
        creatorName: creator.name,
        creatorEmail: 'bench@example.com',
        status: 'active',
        updatedAt: createdAt,
        _deleted: false,
      },
    });
  }
  return writes;
}

export async function benchBrowserBoard(report: Report): Promise<void> {
  const push = (row: Row) => report.add(row);
  // The test server: scrypt cheaper than in production, rate limits off, the built client.
  const server = await startTestServer();
  const url = server.url;
  // A new device: a fresh profile on disk, IndexedDB in files as in a user's browser.
  const profile = await launchFreshProfile({ viewport: { width: 1280, height: 800 } });
  try {
    const http = new TestClient(url);
    await signUp(http, { name: 'Bench Reader', email: 'bench@example.com' });
    const writes = [...creatorWrites(Date.now()), ...gigWrites(GIGS, Date.now())];
    for (let i = 0; i < writes.length; i += 1000) await server.ctx.store.commit(writes.slice(i, i + 1000));

    const context = profile.context;
    const sid = http
      .cookieHeader()
      .split('; ')
      .find((c) => c.startsWith('sid='))!
      .slice(4);
    await context.addCookies([{ name: 'sid', value: sid, url }]);
    // When the board first draws with at least 50 gigs to show: its count says so and its window
    // has cards (the grid draws only what is in view). A string: tsx's name helpers do not exist
    // in the page.
    await context.addInitScript(`(() => {
      let seen = false;
      new MutationObserver(() => {
        if (seen) return;
        const count = /^([0-9]+) gigs?$/.exec(document.querySelector('.field-state')?.textContent ?? '');
        if (count && Number(count[1]) >= 50 && document.querySelector('.gig-card')) {
          seen = true;
          performance.mark('bench:50-gigs-drawn');
        }
      }).observe(document, { childList: true, subtree: true, characterData: true });
    })()`);
    const page = context.pages()[0] ?? (await context.newPage());
    const syncStart = Date.now();
    await page.goto(`${url}/landing`);
    await page.getByText(`${GIGS} gigs`).waitFor({ timeout: 180_000 });
    const firstSync = Date.now() - syncStart;
    push({
      name: `browser: first sync of ${GIGS} gigs into IndexedDB`,
      stat: 'once',
      value: firstSync,
      unit: 'ms',
      target: '≤ 1500 ms',
      pass: firstSync <= 1500,
    });
    const drawnAfterFirstBatch = (await page.evaluate(`(() => {
      const at = (name) => performance.getEntriesByName(name)[0]?.startTime ?? NaN;
      return at('bench:50-gigs-drawn') - at('sync:first-gigs');
    })()`)) as number;
    push({
      name: 'browser: first sync, first gigs arrived → 50 gigs drawn',
      stat: 'once',
      value: drawnAfterFirstBatch,
      unit: 'ms',
      target: '≤ 500 ms',
      pass: drawnAfterFirstBatch <= 500,
    });
    // What comes before the sync can begin: the page's scripts, the session and the database's
    // opening, until the first pulled batch of gigs arrives.
    report.info(
      `browser: first sync of ${GIGS} gigs, the page opened → first gigs arrived`,
      'once',
      (await page.evaluate(`performance.getEntriesByName('sync:first-gigs')[0]?.startTime ?? NaN`)) as number,
      'ms',
    );
    await indexedDbFloor(report, page);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

    await goOffline(context);
    const first: number[] = [];
    const complete: number[] = [];
    for (let i = 0; i < RELOADS; i += 1) {
      await page.reload();
      await page.waitForFunction(() => performance.getEntriesByName('board:complete').length > 0, undefined, {
        timeout: 60_000,
      });
      const marks = (await page.evaluate(`({
        first: performance.getEntriesByName('board:first-50')[0]?.startTime ?? NaN,
        complete: performance.getEntriesByName('board:complete')[0].startTime,
        stages: [
          ...(() => { const n = performance.getEntriesByType('navigation')[0]; return ['response ' + Math.round(n.responseEnd), 'domInteractive ' + Math.round(n.domInteractive)]; })(),
          ...performance.getEntriesByType('mark').map((m) => m.name + ' ' + Math.round(m.startTime)),
        ].join(', '),
      })`)) as { first: number; complete: number; stages: string };
      if (process.env.BENCH_VERBOSE) console.log(`  reload ${i + 1}: ${marks.stages}`);
      // The first-50 step is skipped when the full list wins the race: then both are the same.
      first.push(Number.isNaN(marks.first) ? marks.complete : Math.min(marks.first, marks.complete));
      complete.push(marks.complete);
    }
    push({
      name: 'browser: offline reload → first 50 gigs drawn',
      stat: 'median',
      value: percentile(first, 50),
      unit: 'ms',
      target: '≤ 150 ms',
      pass: percentile(first, 50) <= 150,
    });
    push({
      name: 'browser: offline reload → first 50 gigs drawn',
      stat: 'p95',
      value: percentile(first, 95),
      unit: 'ms',
      target: '≤ 250 ms',
      pass: percentile(first, 95) <= 250,
    });
    push({
      name: 'browser: offline reload → whole board usable',
      stat: 'median',
      value: percentile(complete, 50),
      unit: 'ms',
      target: '≤ 1000 ms',
      pass: percentile(complete, 50) <= 1000,
    });

    // Filter and tab changes: from the click to the next frame drawn.
    const changes = await timedSteps(
      page,
      CHANGES,
      '(i) => actions[i % actions.length]()',
      `const byLabel = (text) => [...document.querySelectorAll('label')].find((l) => l.textContent?.trim() === text)?.querySelector('input');
      const tab = (text) => [...document.querySelectorAll('[role="tab"]')].find((t) => t.textContent?.trim() === text);
      const actions = [() => byLabel('Visual Art').click(), () => byLabel('Remote').click(), () => tab('Applied To').click(), () => tab('All Gigs').click(), () => byLabel('Music and Sound').click()];`,
    );
    const p95 = percentile(changes, 95);
    push({
      name: 'browser: filter or tab change → drawn',
      stat: 'p95',
      value: p95,
      unit: 'ms',
      target: '≤ 50 ms',
      pass: p95 <= 50,
    });

    // The order and the minimum buyer rating (issue 16): the same measure, over sort and minimum changes.
    const ratingChanges = await timedSteps(
      page,
      CHANGES,
      '(i) => actions[i % actions.length]()',
      `const choose = (select, value) => { select.value = value; select.dispatchEvent(new Event('change', { bubbles: true })); };
      const sort = document.querySelector('.board-sort select');
      const min = document.querySelector('#board-filters select');
      const actions = [() => choose(sort, 'best-rated'), () => choose(min, '4'), () => choose(min, '4.5'), () => choose(sort, 'newest'), () => choose(min, '3'), () => choose(min, '')];`,
    );
    const ratingP95 = percentile(ratingChanges, 95);
    // The first switch to "Best rated buyers" is the one that sorts the 10k gigs (later ones reuse
    // the order until gigs or ratings change): a p95 of 40 changes leaves it out, so it has its own row.
    push({
      name: 'browser: first switch to best-rated order (sorts 10k) → drawn',
      stat: 'once',
      value: ratingChanges[0] ?? Number.NaN,
      unit: 'ms',
      target: '≤ 50 ms',
      pass: (ratingChanges[0] ?? Number.POSITIVE_INFINITY) <= 50,
    });
    push({
      name: 'browser: best-rated order or minimum rating change → drawn',
      stat: 'p95',
      value: ratingP95,
      unit: 'ms',
      target: '≤ 50 ms',
      pass: ratingP95 <= 50,
    });

    // Typing in the board's search, the other filters cleared: each keystroke to the next frame
    // drawn, the board filtered by every prefix of the words typed (a string: see above).
    await page.evaluate(`(() => {
      const min = document.querySelector('#board-filters select');
      min.value = '';
      min.dispatchEvent(new Event('change', { bubbles: true }));
      const search = document.querySelector('input.search');
      search.focus();
      search.select();
      document.execCommand('delete');
    })()`);
    const keystrokes = await timedSteps(
      page,
      SEARCH_TYPED.length,
      `(i) => document.execCommand('insertText', false, ${JSON.stringify(SEARCH_TYPED)}[i])`,
    );
    const typed = await page.locator('input.search').inputValue();
    if (typed !== SEARCH_TYPED) throw new Error(`the search box holds "${typed}", not "${SEARCH_TYPED}"`);
    const shownAfter = await page.locator('.field-state').first().textContent();
    if (!/^[0-9]+ gigs?$/.test(shownAfter?.trim() ?? ''))
      throw new Error(`the board did not say how many gigs match "${SEARCH_TYPED}": ${shownAfter}`);
    push({
      name: `browser: a keystroke in the board's search (${GIGS} gigs) → drawn`,
      stat: 'p95',
      value: percentile(keystrokes, 95),
      unit: 'ms',
      target: '≤ 50 ms',
      pass: percentile(keystrokes, 95) <= 50,
    });
  } finally {
    await profile.close();
    await server.cleanup();
  }
  await benchDemoFirstSync(report);
  await benchChatTyping(report);
}

/**
 * The floor under the first sync: the gigs it stored, copied into a fresh database with the same
 * object store and indexes and put again in transactions of 500, with no RxDB, replication or page
 * around them. Run once the device is up to date.
 */
async function indexedDbFloor(report: Report, page: Page): Promise<void> {
  await waitUpToDate(page, 60_000);
  // A string, not a function: tsx's name helpers (__name) do not exist in the page.
  const floor = (await page.evaluate(`(async () => {
    const request = (r) => new Promise((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });
    const open = (name, upgrade) => {
      const r = upgrade ? indexedDB.open(name, 1) : indexedDB.open(name);
      if (upgrade) r.onupgradeneeded = () => upgrade(r.result);
      return request(r);
    };
    const name = (await indexedDB.databases()).map((d) => d.name).find((n) => n.endsWith('--gigs'));
    const source = await open(name);
    const store = source.transaction('docs').objectStore('docs');
    const rows = await request(store.getAll());
    const indexes = [...store.indexNames].map((i) => store.index(i)).map((i) => ({ name: i.name, keyPath: i.keyPath, unique: i.unique, multiEntry: i.multiEntry }));
    const keyPath = store.keyPath;
    source.close();
    const copyName = 'bench-floor-' + Date.now();
    const db = await open(copyName, (db) => {
      const copy = db.createObjectStore('docs', { keyPath });
      for (const i of indexes) copy.createIndex(i.name, i.keyPath, { unique: i.unique, multiEntry: i.multiEntry });
    });
    const started = performance.now();
    for (let i = 0; i < rows.length; i += 500) {
      const tx = db.transaction('docs', 'readwrite');
      const copy = tx.objectStore('docs');
      for (const row of rows.slice(i, i + 500)) copy.put(row);
      await new Promise((resolve, reject) => { tx.oncomplete = resolve; tx.onerror = () => reject(tx.error); });
    }
    const took = performance.now() - started;
    db.close();
    await request(indexedDB.deleteDatabase(copyName));
    return { took, gigs: rows.length };
  })()`)) as { took: number; gigs: number };
  report.info(
    `browser: IndexedDB alone, the first sync's ${floor.gigs} gig rows`,
    'put, transactions of 500',
    floor.took,
    'ms',
  );
  report.note(
    "browser: IndexedDB alone is the gigs the first sync stored, put again into a fresh database with the same indexes, no RxDB or page around them: the floor of the first sync's writes in this browser",
  );
}

/**
 * Issue 20: the demo account's first visit on a new device, desktop, no throttling: each of four
 * screens opened in a fresh browser context, the time until the status says up to date, the
 * longest task while the first sync ran (target: none over 100 ms), and how long before that the
 * screen drew its first card of data (target: drawn before the rest of the sync finished).
 */
async function benchDemoFirstSync(report: Report): Promise<void> {
  const dataDir = await tempDataDir('browser-demo');
  await generateDataDir(dataDir, { gigs: DEMO_GIGS, demoAccounts: DEMO_ACCOUNTS });
  const server = await startChildServer({ dataDir, env: { ...LOAD_ENV, DIST_DIR: await ensureBuilt() } });
  try {
    const account = DEMO_ACCOUNTS[0]!;
    for (const path of ['/landing', '/basket', '/notifications', '/applications']) {
      const http = new TestClient(server.url);
      const login = await http.post('/api/auth/login', { email: account.email, password: DEMO_PASSWORD });
      if (login.status !== 200) throw new Error(`the demo account could not sign in (${login.status})`);
      // Each visit a new device: a fresh profile on disk.
      const profile = await launchFreshProfile({ viewport: { width: 1280, height: 800 } });
      try {
        const context = profile.context;
        await context.addCookies([{ name: 'sid', value: http.sessionToken()!, url: server.url }]);
        // Long tasks as the page sees them, from its first script on, and two moments: the
        // screen's first card of data drawn (a gig on the board, a card in the other screens'
        // lists) and the status first saying up to date (a string: see above).
        await context.addInitScript(`(() => {
          window.__longTasks = [];
          new PerformanceObserver((list) => {
            for (const e of list.getEntries()) window.__longTasks.push(e.duration);
          }).observe({ type: 'longtask', buffered: true });
          const markOnce = (name) => performance.getEntriesByName(name).length || performance.mark(name);
          new MutationObserver(() => {
            if (document.querySelector('main .gig-card, main .card-list > li')) markOnce('bench:data-drawn');
            if ((document.querySelector('[data-testid="sync-status"]')?.textContent ?? '').includes('up to date'))
              markOnce('bench:up-to-date');
          }).observe(document, { childList: true, subtree: true, characterData: true });
        })()`);
        const page = context.pages()[0] ?? (await context.newPage());
        const started = Date.now();
        await page.goto(server.url + path);
        await waitUpToDate(page, 60_000);
        const upToDate = Date.now() - started;
        const longest = Math.max(0, ...((await page.evaluate('window.__longTasks')) as number[]));
        const name = `browser: demo account's first visit to ${path}`;
        report.info(name, 'up to date after', upToDate, 'ms');
        report.atMost(name, 'longest task during the first sync', longest, 'ms', 100);
        // The screen drawn with its data before the rest of the sync finishes (issue 20): how long
        // before the status said up to date its first card was drawn (none drawn: not a number, a miss).
        const ahead = (await page.evaluate(`(() => {
          const at = (name) => performance.getEntriesByName(name)[0]?.startTime ?? NaN;
          return at('bench:up-to-date') - at('bench:data-drawn');
        })()`)) as number;
        report.add({
          name,
          stat: 'data drawn before up to date by',
          value: ahead,
          unit: 'ms',
          target: '> 0 ms',
          pass: ahead > 0,
        });
        if (longest === 0) report.note(`${name}: no task of 50 ms or more (the Long Tasks API reports only those)`);
      } finally {
        await profile.close();
      }
    }
  } finally {
    await server.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runStandalone('Browser board benchmark', (report) => benchBrowserBoard(report));
}
