import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type BrowserContextOptions } from 'playwright-core';
import { LAUNCH_OPTIONS } from '../../tests/support/browser';

export interface FreshProfile {
  context: BrowserContext;
  /** Closes the browser and deletes its profile. */
  close(): Promise<void>;
}

/**
 * The tests' Chromium (same path and flags) with a new profile in a temporary folder: a new device
 * as a user has it, its IndexedDB in files on disk. A context of `launchBrowser()` is incognito,
 * where Chromium keeps IndexedDB in memory, and that backend is not what a user's browser runs:
 * measured with Chromium 150, its writes were ~1.6× slower than a profile's on disk in a new
 * browser and slower again with every database the browser had held (decision 008).
 */
export async function launchFreshProfile(options: BrowserContextOptions = {}): Promise<FreshProfile> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-profile-'));
  try {
    const context = await chromium.launchPersistentContext(dir, { ...LAUNCH_OPTIONS, ...options });
    return {
      context,
      close: async () => {
        try {
          await context.close();
        } finally {
          await fs.rm(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    await fs.rm(dir, { recursive: true, force: true });
    throw error;
  }
}
