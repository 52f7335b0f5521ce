import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const SERVER_CHILD = path.resolve('tests/support/server-child.ts');

export type ServerProcess = {
  url: string;
  dataDir: string;
  child: ChildProcess;
  /** Sends `{ op }` to the child (tests/support/server-child.ts) and resolves with its answer. */
  ask<T = Record<string, unknown>>(op: 'memory' | 'cpu' | 'stats'): Promise<T>;
  /** Closes the server gracefully and waits for the process to exit. */
  stop(): Promise<void>;
};

export type ServerProcessOptions = {
  dataDir: string;
  env?: Record<string, string>;
  /** Extra Node flags, e.g. `--cpu-prof`, `--expose-gc`. */
  nodeArgs?: string[];
};

/**
 * The real server in its own process, as `npm start` runs it (production scrypt cost, rate limits
 * off for load), so the load generators never share its event loop.
 */
export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const child = fork(SERVER_CHILD, [], {
    execArgv: ['--import', 'tsx', ...(options.nodeArgs ?? [])],
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: options.dataDir,
      DIST_DIR: path.resolve('dist'),
      LOG_LEVEL: 'error',
      RATE_LIMITS: 'off',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
    if (stderr.length > 20_000) stderr = stderr.slice(-10_000);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /serving on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    void exited.then((code) => reject(new Error(`the server exited early (${code}): ${stderr}`)));
  });
  let nextId = 1;
  const waiting = new Map<number, (value: Record<string, unknown>) => void>();
  child.on('message', (m: { id: number }) => {
    waiting.get(m.id)?.(m);
    waiting.delete(m.id);
  });
  return {
    url,
    dataDir: options.dataDir,
    child,
    ask<T>(op: string) {
      const id = nextId++;
      return new Promise<T>((resolve) => {
        waiting.set(id, resolve as never);
        child.send({ id, op });
      });
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.send({ id: 0, op: 'close' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A fresh temporary folder; `copyFrom` fills it with a generated data folder's files. */
export async function tempDataDir(label: string, copyFrom?: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `gigs-bench-${label}-`));
  if (copyFrom) await fs.cp(copyFrom, dir, { recursive: true });
  return dir;
}
