import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHROMIUM, INSTALL_COMMAND, planChromium, type Situation } from '../../scripts/ensure-chromium';

/** `npm ci && npm test` on a fresh machine: the first step finds or installs Chromium, or stops at once saying how. */

const ROOT = path.resolve(import.meta.dirname, '../..');
const fresh = (over: Partial<Situation> = {}): Situation => ({
  configured: undefined,
  executable: () => false,
  isRoot: false,
  passwordlessSudo: () => false,
  hasAptGet: true,
  ...over,
});

describe('the test command sets itself up', () => {
  it("npm test's first step is the Chromium check, and CI runs exactly the README's command", () => {
    const scripts = (
      JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts.test!.split('&&')[0]!.trim()).toBe('npm run test:setup');
    expect(scripts['test:setup']).toContain('scripts/ensure-chromium.ts');
    const ci = fs
      .readFileSync(path.join(ROOT, '.ci/run'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() && !l.startsWith('#'));
    expect(ci.at(-1)).toBe('npm ci && npm test');
    expect(ci.join('\n')).not.toMatch(/apt-get|chromium/i);
    expect(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')).toContain('npm ci && npm test');
  });

  it('finds Chromium at CHROMIUM_PATH or the default path, installs it as root or with passwordless sudo, and otherwise stops with the command', () => {
    expect(planChromium(fresh({ executable: (f) => f === DEFAULT_CHROMIUM }))).toEqual({
      action: 'ready',
      path: DEFAULT_CHROMIUM,
    });
    expect(planChromium(fresh({ configured: '/opt/chrome', executable: (f) => f === '/opt/chrome' }))).toEqual({
      action: 'ready',
      path: '/opt/chrome',
    });
    expect(planChromium(fresh({ isRoot: true }))).toEqual({ action: 'install', sudo: false });
    expect(planChromium(fresh({ passwordlessSudo: () => true }))).toEqual({ action: 'install', sudo: true });
    const stop = planChromium(fresh());
    expect(stop.action).toBe('stop');
    expect(stop.action === 'stop' && stop.message).toContain(INSTALL_COMMAND);
    // A wrong CHROMIUM_PATH is reported, never papered over by installing another browser.
    expect(planChromium(fresh({ configured: '/nope', isRoot: true })).action).toBe('stop');
    expect(planChromium(fresh({ hasAptGet: false, isRoot: true })).action).toBe('stop');
  });

  it('the script stops at once, naming the fix, when the browser is missing', () => {
    const started = Date.now();
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/ensure-chromium.ts'], {
      cwd: ROOT,
      env: { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('CHROMIUM_PATH is /nonexistent/chromium');
    expect(run.stderr).toContain(INSTALL_COMMAND);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('passes when the browser is there', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/ensure-chromium.ts'], {
      cwd: ROOT,
      env: { ...process.env, CHROMIUM_PATH: process.execPath },
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
  });
});
