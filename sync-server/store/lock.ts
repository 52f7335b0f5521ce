import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * One server process owns a data folder: two processes appending to the same journal would
 * interleave lines and each would snapshot only its own memory, losing the other's writes.
 *
 * The lock is a file holding the owner's pid. A lock whose owner is gone (killed, machine
 * restarted) is stale and taken over, so a crash never needs a manual clean-up.
 */

export const LOCK_FILE = 'LOCK';

export type DataDirLock = {
  readonly dir: string;
  release(): Promise<void>;
};

type LockInfo = { pid: number; startTime: string | null; token: string; since: string };

/** Folders this process holds: a pid check cannot tell "me" from "a dead process that had my pid". */
const heldHere = new Set<string>();

export async function lockDataDir(dir: string, now: () => number = Date.now): Promise<DataDirLock> {
  const lockPath = path.join(dir, LOCK_FILE);
  if (heldHere.has(dir)) {
    throw new Error(
      `This server process already has the data folder ${dir} open. Close that store first, or set DATA_DIR to another folder.`,
    );
  }
  const mine: LockInfo = {
    pid: process.pid,
    startTime: await processStartTime(process.pid),
    token: randomBytes(12).toString('hex'),
    since: new Date(now()).toISOString(),
  };
  const text = JSON.stringify(mine);
  // Written aside, then linked in: another process never sees a half-written lock file.
  const tmp = path.join(dir, `${LOCK_FILE}.${mine.token}.tmp`);
  await fs.writeFile(tmp, text);
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await fs.link(tmp, lockPath);
        break;
      } catch (err) {
        if (!isCode(err, 'EEXIST')) throw err;
      }
      const current = await readLock(lockPath);
      if (current?.info && (await isAlive(current.info))) throw refusal(current.info.pid, dir);
      // Several processes racing for a stale lock: give up rather than spin.
      if (attempt >= 3) throw refusal(current?.info?.pid, dir);
      if (current) await removeStaleLock(dir, lockPath, current.text, mine.token);
    }
  } finally {
    await fs.rm(tmp, { force: true });
  }
  heldHere.add(dir);
  let released = false;
  return {
    dir,
    async release() {
      if (released) return;
      released = true;
      heldHere.delete(dir);
      const current = await readLock(lockPath);
      if (current?.info?.token === mine.token) await fs.rm(lockPath, { force: true });
    },
  };
}

function refusal(pid: number | undefined, dir: string): Error {
  const who = pid === undefined ? 'Another server process' : `Another server process (pid ${pid})`;
  return new Error(`${who} is using the data folder ${dir}. Stop it first, or set DATA_DIR to another folder.`);
}

/**
 * Moves the stale lock aside, then checks it moved the one it judged stale: if another starting
 * process took over in between, the lock just moved is that process's live one, so it goes back.
 */
async function removeStaleLock(dir: string, lockPath: string, staleText: string, token: string): Promise<void> {
  const aside = path.join(dir, `${LOCK_FILE}.stale-${token}`);
  try {
    await fs.rename(lockPath, aside);
  } catch (err) {
    if (isCode(err, 'ENOENT')) return;
    throw err;
  }
  const moved = await fs.readFile(aside, 'utf8').catch(() => '');
  if (moved !== staleText) await fs.link(aside, lockPath).catch(() => undefined);
  await fs.rm(aside, { force: true });
}

async function readLock(lockPath: string): Promise<{ text: string; info: LockInfo | undefined } | undefined> {
  let text: string;
  try {
    text = await fs.readFile(lockPath, 'utf8');
  } catch (err) {
    if (isCode(err, 'ENOENT')) return undefined;
    throw err;
  }
  try {
    const info = JSON.parse(text) as Partial<LockInfo>;
    if (typeof info.pid === 'number' && Number.isInteger(info.pid) && info.pid > 0) {
      return { text, info: info as LockInfo };
    }
  } catch {
    // An unreadable lock cannot name a live owner: treated as stale.
  }
  return { text, info: undefined };
}

async function isAlive(info: LockInfo): Promise<boolean> {
  // Our own pid in a lock we do not hold: a previous incarnation (containers reuse low pids).
  if (info.pid === process.pid) return false;
  try {
    process.kill(info.pid, 0);
  } catch (err) {
    return isCode(err, 'EPERM');
  }
  // The pid exists, but it may have been reused by an unrelated process since the lock was taken.
  const startTime = await processStartTime(info.pid);
  return !(startTime && info.startTime && startTime !== info.startTime);
}

/** Start time of a process in clock ticks since boot (Linux); null where /proc is unavailable. */
async function processStartTime(pid: number): Promise<string | null> {
  try {
    const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses, so count fields after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

function isCode(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}
