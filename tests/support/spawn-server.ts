import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { storeEnvFor } from './store-under-test';

/**
 * A server in a child process of its own: the real server (tests/support/server-entry.ts) for
 * kill tests and benchmarks, whose load must not share its event loop, or any entry that prints
 * `serving on http://…` and, with an IPC channel, answers `{ id, op }` messages as server-entry.ts
 * does (bench/support/reference-chat-server.ts).
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The real server without the client build step of `npm start`. */
export const SERVER_ENTRY = path.join(ROOT, 'tests/support/server-entry.ts');

/** What benchmarks and kill tests run the server with: quiet, rate limits off, the built client. */
export const LOAD_ENV: Record<string, string> = {
  LOG_LEVEL: 'error',
  RATE_LIMITS: 'off',
  DIST_DIR: path.join(ROOT, 'dist'),
};

export type ChildServerOptions = {
  /** The script to run; TypeScript runs through tsx. Default: the real server. */
  entry?: string;
  /** The server's DATA_DIR. */
  dataDir?: string;
  /** Over this process's environment, PORT=0 and HOST=127.0.0.1. */
  env?: Record<string, string>;
  /** Extra Node flags, e.g. `--expose-gc`. */
  nodeArgs?: string[];
  /** Runs the child under `--cpu-prof`, writing its profile here when it stops gracefully. */
  profileDir?: string;
  /** An IPC channel (default), for `ask`, `cpuMicros` and a graceful `stop`; without one, `stop` sends SIGTERM. */
  ipc?: boolean;
  /** Fails the start when `serving on` has not come by then (default: waits as long as the child runs). */
  startTimeoutMs?: number;
  /** `stop` kills with SIGKILL when the child has not exited by then (default 30 s). */
  stopTimeoutMs?: number;
};

export type ChildServer = {
  url: string;
  child: ChildProcess;
  /** The end of what the child wrote to stderr so far. */
  stderr(): string;
  /** Sends `{ id, op }` over IPC and resolves with the child's answer (see server-entry.ts). */
  ask<T = Record<string, unknown>>(op: 'memory' | 'cpu' | 'stats'): Promise<T>;
  /** The child's CPU time so far (user + system), in µs. */
  cpuMicros(): Promise<number>;
  /** Closes the server gracefully (`close` over IPC, or SIGTERM) and resolves once the process has exited. */
  stop(): Promise<void>;
  /** Kills it with SIGKILL and resolves once it is gone. */
  kill(): Promise<void>;
};

const STDERR_KEPT = 20_000;

/**
 * Resolves with the URL of the child's `serving on http://…` line; rejects when the child exits
 * first or `timeoutMs` passes. `stderr` goes into the error.
 */
export function waitForServingUrl(
  child: ChildProcess,
  timeoutMs?: number,
  stderr: () => string = () => '',
): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let timer: NodeJS.Timeout | undefined;
    const settle = (error: Error | undefined, url = '') => {
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.off('exit', onExit);
      // Keep reading (and dropping) what it prints, so a chatty server never blocks on a full pipe.
      child.stdout!.resume();
      if (error) reject(error);
      else resolve(url);
    };
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /serving on (http:\/\/\S+)/.exec(out);
      if (m) settle(undefined, m[1]!.replace('localhost', '127.0.0.1'));
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      settle(new Error(`the server exited while starting (${code ?? signal}): ${stderr()}`));
    child.stdout!.on('data', onData);
    child.once('exit', onExit);
    if (timeoutMs !== undefined)
      timer = setTimeout(
        () => settle(new Error(`the server did not start in ${timeoutMs} ms: ${stderr()}`)),
        timeoutMs,
      );
  });
}

/** Starts the child and resolves once it is serving. */
export async function startChildServer(options: ChildServerOptions = {}): Promise<ChildServer> {
  const entry = options.entry ?? SERVER_ENTRY;
  const ipc = options.ipc ?? true;
  const execArgv = [
    ...(entry.endsWith('.ts') ? ['--import', 'tsx'] : []),
    ...(options.nodeArgs ?? []),
    ...(options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.profileDir)}`] : []),
  ];
  const child = spawn(process.execPath, [...execArgv, entry], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      ...(options.dataDir ? { DATA_DIR: options.dataDir, ...(await storeEnvFor(options.dataDir)) } : {}),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe', ...(ipc ? (['ipc'] as const) : [])],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
    if (stderr.length > STDERR_KEPT) stderr = stderr.slice(-STDERR_KEPT / 2);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const running = () => child.exitCode === null && child.signalCode === null;
  const url = await waitForServingUrl(child, options.startTimeoutMs, () => stderr);

  let nextId = 1;
  const waiting = new Map<number, (answer: Record<string, unknown>) => void>();
  if (ipc) {
    child.on('message', (m: { id: number }) => {
      waiting.get(m.id)?.(m);
      waiting.delete(m.id);
    });
  }
  const ask = <T>(op: string) => {
    if (!ipc) return Promise.reject(new Error(`no IPC channel to ask the server for ${op}`));
    const id = nextId++;
    return new Promise<T>((resolve) => {
      waiting.set(id, resolve as never);
      child.send({ id, op });
    });
  };
  return {
    url,
    child,
    stderr: () => stderr,
    ask,
    cpuMicros: async () => (await ask<{ cpuMicros: number }>('cpu')).cpuMicros,
    async stop() {
      if (!running()) return;
      if (ipc) child.send({ id: 0, op: 'close' });
      else child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), options.stopTimeoutMs ?? 30_000);
      await exited;
      clearTimeout(timer);
    },
    async kill() {
      if (running()) child.kill('SIGKILL');
      await exited;
    },
  };
}
