import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generateDataDir, type Generated, type GenerateOptions } from '../data/generate';

/**
 * Generated data folders, made once per run and copied for each benchmark that writes to one.
 * Each is the seeded marketplace plus signed-in sessions (and chat pairs) the load clients use.
 */
export type Dataset = Generated & { dir: string; seconds: number };

const root = path.join(os.tmpdir(), `gigs-bench-data-${process.pid}`);
const made = new Map<string, Promise<Dataset>>();

export function dataset(options: GenerateOptions): Promise<Dataset> {
  const key = `${options.gigs}-${options.sessions ?? 0}-${options.chatPairs ?? 0}`;
  let entry = made.get(key);
  if (!entry) {
    entry = (async () => {
      const dir = path.join(root, key);
      await fs.rm(dir, { recursive: true, force: true });
      const started = performance.now();
      const generated = await generateDataDir(dir, options);
      const seconds = (performance.now() - started) / 1000;
      console.log(`  generated ${options.gigs} gigs in ${seconds.toFixed(1)} s: ${JSON.stringify(generated.counts)}`);
      return { ...generated, dir, seconds };
    })();
    made.set(key, entry);
  }
  return entry;
}

/** A fresh temporary folder; `copyFrom` fills it with a generated data folder's files. */
export async function tempDataDir(label: string, copyFrom?: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `gigs-bench-${label}-`));
  if (copyFrom) await fs.cp(copyFrom, dir, { recursive: true });
  return dir;
}

/** A private, writable copy of a dataset's folder. */
export function copyOf(data: Dataset, label: string): Promise<string> {
  return tempDataDir(label, data.dir);
}

export async function removeDatasets(): Promise<void> {
  await fs.rm(root, { recursive: true, force: true });
}
