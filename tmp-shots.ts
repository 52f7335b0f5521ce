import { launchBrowser } from './tests/support/browser';
const base = 'http://localhost:8099';
const pages = (process.argv[2] ?? '/landing,/basket,/applications,/notifications,/settings,/profile').split(',');
const browser = await launchBrowser();
const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, hasTouch: true, isMobile: true });
const page = await context.newPage();
page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') console.log('console', m.type(), m.text()); });
await page.goto(base + '/login');
await page.getByLabel(/email/i).fill(process.env.WHO ?? 'amara@example.com');
await page.getByLabel(/password/i).fill('CreativeGigs1');
await page.getByRole('button', { name: /log in|sign in/i }).click();
await page.waitForURL(/landing/);
for (const p of pages) {
  await page.goto(base + p);
  await page.waitForTimeout(2500);
  const name = p.replace(/[^a-z0-9]+/gi, '_') || 'root';
  await page.screenshot({ path: `/tmp/shots/${name}.png`, fullPage: process.env.FULL === '1' });
  console.log('shot', p);
}
await browser.close();
