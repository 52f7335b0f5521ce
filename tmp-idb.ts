import { launchBrowser } from './tests/support/browser';
const base = process.env.BASE ?? 'http://localhost:8099';
const path = process.argv[2] ?? '/basket';
const browser = await launchBrowser();
for (let run = 0; run < 1; run++) {
const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
const login = await context.newPage();
await login.goto(base + '/login');
await login.getByLabel(/email/i).fill('amara@example.com');
await login.getByLabel(/password/i).fill('CreativeGigs1');
await login.getByRole('button', { name: /log in|sign in/i }).click();
await login.waitForURL(/landing/);
// a fresh device: delete every database and unregister workers
await login.evaluate(async () => {
  for (const d of await indexedDB.databases()) await new Promise((r) => { const q = indexedDB.deleteDatabase(d.name!); q.onsuccess = q.onerror = q.onblocked = r; });
  for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
  localStorage.clear();
});
await login.close();
const page = await context.newPage();
await page.addInitScript(() => {
  const log: any[] = ((globalThis as any).__idb = []);
  const open = indexedDB.open.bind(indexedDB);
  (indexedDB as any).open = (name: string, v?: number) => {
    const t0 = performance.now();
    const req = v === undefined ? open(name) : open(name, v);
    req.addEventListener('success', () => log.push({ name, t0: Math.round(t0), t1: Math.round(performance.now()) }));
    return req;
  };
  new PerformanceObserver((l) => { for (const e of l.getEntries()) (globalThis as any).__lcp = { t: Math.round(e.startTime), size: (e as any).size, el: (e as any).element?.outerHTML?.slice(0, 80) }; }).observe({ type: 'largest-contentful-paint', buffered: true });
  (globalThis as any).__long = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) (globalThis as any).__long.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({ type: 'longtask', buffered: true });
});
const cdp = await context.newCDPSession(page);
const reqs: string[] = [];
let nav0 = 0;
page.on('requestfinished', async (r) => { const t = r.timing(); if (r.url().includes('/api/')) reqs.push(`${Math.round(t.startTime - nav0 + t.requestStart)}..${Math.round(t.startTime - nav0 + t.responseEnd)} ${r.url().replace(base, '').slice(0, 90)}`); });
await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 200 }); await cdp.send('Profiler.start');
nav0 = Date.now(); await page.goto(base + path);
await page.getByText(/Online · up to date/).waitFor({ timeout: 60000 });
await page.waitForTimeout(1500);
const { profile } = await cdp.send('Profiler.stop');
const pOrigin = await page.evaluate(() => performance.timeOrigin);
(await import('node:fs')).writeFileSync('/tmp/basket.cpuprofile', JSON.stringify({ ...profile, pOrigin }));
const out = await page.evaluate(() => ({ idb: (globalThis as any).__idb, lcp: (globalThis as any).__lcp, long: (globalThis as any).__long,
  marks: performance.getEntriesByType('mark').map((m) => [m.name, Math.round(m.startTime)]),
  fcp: Math.round(performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1) }));
console.log(JSON.stringify({...out, idb: undefined}, null, 0)); console.log(reqs.join('\n'));
await context.close();
}
await browser.close();
