import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { gigDoc, write } from '../support/fixtures';
import { signedInActor, waitUpToDate } from '../support/browser';
import type { TestServer } from '../support/in-process-server';
import { useServerAndBrowser } from '../support/e2e';

/**
 * The built app under its own content security policy: no page may do what the policy forbids
 * (issue 18, item 8: zod's probe for `new Function` was blocked, and logged, on every page).
 */

/** Records every CSP violation and console error of the page from its first script on. */
async function watch(page: Page) {
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  return {
    violations: () => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations),
    cspConsoleErrors: () => consoleErrors.filter((t) => /Content Security Policy|unsafe-eval|Refused to/i.test(t)),
  };
}

describe('the content security policy', () => {
  let server: TestServer;
  let browser: Browser;
  useServerAndBrowser((s, b) => ([server, browser] = [s, b]));

  it('no public page breaks it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const watched = await watch(page);
    for (const p of ['/', '/signup', '/login', '/waitlist-signup']) {
      await page.goto(server.url + p);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      // The signup form validates with the shared schemas on input.
      if (p === '/signup') await page.getByLabel(/email/i).first().fill('not-an-email');
      expect({ page: p, violations: await watched.violations() }).toEqual({ page: p, violations: [] });
    }
    expect(watched.cspConsoleErrors()).toEqual([]);
    await context.close();
  });

  it('the signed-in board, with its data and the change stream, breaks nothing', async () => {
    const actor = await signedInActor(browser, server.url);
    await write(actor.http, 'gigs', gigDoc({ title: 'Poster for a jazz night' }));
    const watched = await watch(actor.page);
    await actor.page.goto(server.url + '/landing');
    await actor.page.getByRole('heading', { name: 'Poster for a jazz night' }).waitFor();
    await waitUpToDate(actor.page);
    expect(await watched.violations()).toEqual([]);
    expect(watched.cspConsoleErrors()).toEqual([]);
    await actor.context.close();
  });
});
