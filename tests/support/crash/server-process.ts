import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The real server (tests/support/server-child.ts) as a child process that a test kills with
 * SIGKILL. Started through tsx it takes ~3 s to load on this machine, most of it transforming
 * TypeScript; bundled once with esbuild (tsx's own compiler) into node_modules/.cache, where its
 * imports of packages still resolve, it starts in ~1 s, which is what makes hundreds of kills
 * affordable. Same code either way; tsx is the fallback when esbuild cannot be loaded.
 */

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const ENTRY = path.join(ROOT, 'tests/support/server-child.ts');
const BUNDLE = path.join(ROOT, 'node_modules/.cache/crash-safety/server-child.mjs');

let bundled: Promise<string[]> | undefined;

/** The node arguments that run the server child: the bundle when it can be built, tsx otherwise. */
export function serverCommand(): Promise<string[]> {
  bundled ??= (async () => {
    try {
      const esbuild = await import('esbuild');
      await esbuild.build({
        entryPoints: [ENTRY],
        outfile: BUNDLE,
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        packages: 'external',
        logLevel: 'error',
      });
      return [BUNDLE];
    } catch {
      return ['--import', 'tsx', ENTRY];
    }
  })();
  return bundled;
}

/** A port that is free now, so every incarnation of the server listens where clients reconnect. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export type ServerProcess = {
  url: string;
  child: ChildProcess;
  /** Everything the child wrote to stderr so far. */
  stderr(): string;
  /** Kills it with SIGKILL and resolves once it is gone. */
  kill(): Promise<void>;
};

export async function startServerProcess(env: Record<string, string>, timeoutMs = 30_000): Promise<ServerProcess> {
  const args = await serverCommand();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'error', RATE_LIMITS: 'off', DIST_DIR: path.join(ROOT, 'dist'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in ${timeoutMs} ms: ${stderr}`)), timeoutMs);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /serving on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!.replace('localhost', '127.0.0.1'));
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited while starting (${code ?? signal}): ${stderr}`));
    });
  });
  return {
    url,
    child,
    stderr: () => stderr,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
