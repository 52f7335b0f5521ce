import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The first step of `npm test`: the end-to-end suite drives a system Chromium (Playwright cannot
 * download its own here), so find it before minutes of other tests run, and on a fresh Debian
 * machine install Debian's package when this user may (root, or sudo without a password).
 * Otherwise stop at once with the one command that fixes it.
 */

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';
export const INSTALL_COMMAND = 'sudo apt-get update && sudo apt-get install -y chromium';

export type Situation = {
  /** CHROMIUM_PATH when set. */
  configured: string | undefined;
  executable: (file: string) => boolean;
  isRoot: boolean;
  passwordlessSudo: () => boolean;
  hasAptGet: boolean;
};

export type Plan =
  { action: 'ready'; path: string } | { action: 'install'; sudo: boolean } | { action: 'stop'; message: string };

/**
 * What to do. A CHROMIUM_PATH that names a missing file is a mistake to report, not a reason to
 * install another browser; only the default path is installed, and only through apt.
 */
export function planChromium(s: Situation): Plan {
  const wanted = s.configured || DEFAULT_CHROMIUM;
  if (s.executable(wanted)) return { action: 'ready', path: wanted };
  if (s.configured)
    return {
      action: 'stop',
      message: `CHROMIUM_PATH is ${s.configured}, which is not an executable file. Point it at Chromium, or unset it and run: ${INSTALL_COMMAND}`,
    };
  if (!s.hasAptGet)
    return {
      action: 'stop',
      message: `The end-to-end tests need Chromium at ${DEFAULT_CHROMIUM} (or CHROMIUM_PATH). Install Chromium with your system's package manager, or set CHROMIUM_PATH.`,
    };
  if (s.isRoot) return { action: 'install', sudo: false };
  if (s.passwordlessSudo()) return { action: 'install', sudo: true };
  return {
    action: 'stop',
    message: `The end-to-end tests need Chromium at ${DEFAULT_CHROMIUM}. Install it with:\n  ${INSTALL_COMMAND}\nthen run the tests again (or set CHROMIUM_PATH to a Chromium you have).`,
  };
}

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function run(command: string, args: string[]): boolean {
  return (
    spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
      .status === 0
  );
}

function main(): number {
  const plan = planChromium({
    configured: process.env.CHROMIUM_PATH,
    executable,
    isRoot: process.getuid?.() === 0,
    passwordlessSudo: () => spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0,
    hasAptGet: executable('/usr/bin/apt-get'),
  });
  if (plan.action === 'ready') return 0;
  if (plan.action === 'stop') {
    console.error(plan.message);
    return 1;
  }
  console.log("Installing Debian's Chromium for the end-to-end tests...");
  const [command, ...prefix] = plan.sudo ? ['sudo', '-n', 'apt-get'] : ['apt-get'];
  const apt = (...args: string[]) => run(command!, [...prefix, ...args]);
  if (!apt('update', '-qq') || !apt('install', '-y', '-qq', 'chromium') || !executable(DEFAULT_CHROMIUM)) {
    console.error(`Installing Chromium failed. Run:\n  ${INSTALL_COMMAND}`);
    return 1;
  }
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1])) process.exitCode = main();
