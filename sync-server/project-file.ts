import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The path of a file of this project, e.g. `client/styles/base.css`. Found from the project's root
 * (the nearest folder above this module with the project's package.json), not from this module's
 * own place, so the server also finds it when it runs bundled into another folder (the
 * crash-safety suite bundles it under node_modules/.cache).
 */
export function projectFile(relative: string): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, relative)))
      return path.join(dir, relative);
    const parent = path.dirname(dir);
    if (parent === dir)
      throw new Error(`The project file ${relative} was not found above ${fileURLToPath(import.meta.url)}.`);
    dir = parent;
  }
}
