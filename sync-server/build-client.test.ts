import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientBuildIsStale } from './build-client';

let root: string;
const dist = () => path.join(root, 'dist');
/** Sets the modification time of a file or folder `secondsAgo` in the past. */
function age(relative: string, secondsAgo: number): void {
  const at = Date.now() / 1000 - secondsAgo;
  fs.utimesSync(path.join(root, relative), at, at);
}
/** Writes a file with its modification time `secondsAgo` in the past. */
function write(relative: string, secondsAgo: number): void {
  const file = path.join(root, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, 'x');
  age(relative, secondsAgo);
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'build-client-'));
  write('client/main.tsx', 300);
  write('shared/money.ts', 300);
  write('package.json', 300);
  // Directories get the time of their last entry's change: set them in the past too.
  for (const dir of ['client', 'shared']) age(dir, 300);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('clientBuildIsStale (npm start and the benchmarks build the client when it is)', () => {
  it('is stale with no build', () => {
    expect(clientBuildIsStale(dist(), root)).toBe(true);
  });

  it('is not stale when the build is newer than every source', () => {
    write('dist/index.html', 100);
    expect(clientBuildIsStale(dist(), root)).toBe(false);
  });

  it('is stale when a client or shared source changed after the build', () => {
    write('dist/index.html', 100);
    write('shared/money.ts', 10);
    expect(clientBuildIsStale(dist(), root)).toBe(true);
  });

  it('is stale when the dependencies changed after the build', () => {
    write('dist/index.html', 100);
    write('package-lock.json', 10);
    expect(clientBuildIsStale(dist(), root)).toBe(true);
  });

  it('ignores tests and node_modules, which are not in the build', () => {
    write('dist/index.html', 100);
    write('client/data/event-stream.test.ts', 10);
    write('client/node_modules/x/index.js', 10);
    for (const dir of ['client', 'client/data', 'client/node_modules']) age(dir, 300);
    expect(clientBuildIsStale(dist(), root)).toBe(false);
  });
});
