import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOAD_ENV, SERVER_ENTRY, startChildServer, type ChildServer } from '../spawn-server';

/**
 * The real server (tests/support/server-entry.ts) as a child process that a test kills with
 * SIGKILL. Started through tsx it takes ~3 s to load on this machine, most of it transforming
 * TypeScript; bundled once with esbuild (tsx's own compiler) into node_modules/.cache, where its
 * imports of packages still resolve, it starts in ~1 s, which is what makes hundreds of kills
 * affordable. Same code either way; tsx is the fallback when esbuild cannot be loaded.
 */

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const BUNDLE = path.join(ROOT, 'node_modules/.cache/crash-safety/server-entry.mjs');

let bundled: Promise<string> | undefined;

/** The script that runs the server child: the bundle when it can be built, the TypeScript source (through tsx) otherwise. */
export function serverCommand(): Promise<string> {
  bundled ??= (async () => {
    try {
      const esbuild = await import('esbuild');
      await esbuild.build({
        entryPoints: [SERVER_ENTRY],
        outfile: BUNDLE,
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        packages: 'external',
        logLevel: 'error',
      });
      return BUNDLE;
    } catch {
      return SERVER_ENTRY;
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

export type ServerProcess = ChildServer;

/** Starts the (bundled) server with `env` (DATA_DIR, PORT, ...), without an IPC channel: it only ever dies by `kill()`. */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 30_000): Promise<ServerProcess> {
  return startChildServer({
    entry: await serverCommand(),
    env: { ...LOAD_ENV, ...env },
    ipc: false,
    startTimeoutMs: timeoutMs,
  });
}
