import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openJournalStore } from './journal-store';
import { LOCK_FILE, lockDataDir } from './lock';

const CHILD = fileURLToPath(new URL('../../tests/support/store-writer-process.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const dirs: string[] = [];
const children: ChildProcess[] = [];

async function tempDir(): Promise<string> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'store-lock-')));
  dirs.push(dir);
  return dir;
}

const options = (dataDir: string) => ({ dataDir, indexes: {}, snapshotIntervalMs: 60_000, snapshotEveryCommits: 1000 });

/** Starts a child process that opens the store on `dir` and holds it; resolves once it has the lock. */
async function holdInChild(dir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, 'hold', dir], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
    child.once('exit', (code) => reject(new Error(`child exited with ${code}: ${stderr}`)));
  });
  return child;
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
  );

afterEach(async () => {
  for (const child of children.splice(0)) {
    child.kill('SIGKILL');
    await exited(child);
  }
  await Promise.all(dirs.splice(0).map((d) => fs.rm(d, { recursive: true, force: true })));
});

describe('data folder lock', () => {
  it('refuses a second process while the first is alive, then takes over its stale lock', async () => {
    const dir = await tempDir();
    const child = await holdInChild(dir);
    const message = `Another server process (pid ${child.pid}) is using the data folder ${dir}. Stop it first, or set DATA_DIR to another folder.`;
    await expect(openJournalStore(options(dir))).rejects.toThrow(message);

    child.kill('SIGKILL');
    await exited(child);
    const store = await openJournalStore(options(dir));
    const lock = JSON.parse(await fs.readFile(path.join(dir, LOCK_FILE), 'utf8')) as { pid: number };
    expect(lock.pid).toBe(process.pid);
    await store.close();
    await expect(fs.access(path.join(dir, LOCK_FILE))).rejects.toThrow();
  }, 20_000);

  it('lets a closed store be opened again, by another process too', async () => {
    const dir = await tempDir();
    await (await openJournalStore(options(dir))).close();
    const child = await holdInChild(dir);
    child.stdin!.end(); // the child closes its store and exits
    await exited(child);
    expect(child.exitCode).toBe(0);
    await (await openJournalStore(options(dir))).close();
  }, 20_000);

  it('refuses a second open in the same process', async () => {
    const dir = await tempDir();
    const store = await openJournalStore(options(dir));
    await expect(openJournalStore(options(dir))).rejects.toThrow(/already has the data folder .* open/);
    await store.close();
  });

  it('treats an unreadable lock file, or one naming a dead process, as stale', async () => {
    const dir = await tempDir();
    await fs.writeFile(path.join(dir, LOCK_FILE), '');
    const first = await lockDataDir(dir);
    await first.release();
    await fs.writeFile(path.join(dir, LOCK_FILE), JSON.stringify({ pid: 2 ** 22 + 7, startTime: null, token: 'x' }));
    const second = await lockDataDir(dir);
    await second.release();
    expect(await fs.readdir(dir)).toEqual([]);
  });

  it('does not remove a lock it no longer owns', async () => {
    const dir = await tempDir();
    const lock = await lockDataDir(dir);
    await fs.writeFile(path.join(dir, LOCK_FILE), JSON.stringify({ pid: 1, token: 'someone-else' }));
    await lock.release();
    await expect(fs.readFile(path.join(dir, LOCK_FILE), 'utf8')).resolves.toContain('someone-else');
  });
});
