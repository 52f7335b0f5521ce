import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * `npm test`'s static checks, the typecheck, ESLint and Prettier, run side by side: each is one
 * process (37, 28 and 22 s alone on the two-core machine, using ~1.4 cores with its own garbage
 * collection), and together they take 73 s where one after another took 82–87 s. Each check's
 * output is printed whole when it ends, so the three never interleave; the run fails when any
 * check fails, naming it (docs/decisions/034-test-run-time.md).
 */

/** The package scripts it runs, one process each. */
export const STATIC_CHECKS = ['typecheck', 'lint:code', 'format:check'] as const;

export type CheckResult = { name: string; code: number; output: string; seconds: number };

/** How a check is started: `npm run <name>`. */
const npmScript = (name: string): [string, string[]] => ['npm', ['run', '--silent', name]];

/**
 * Starts every check at once; `print` hears each one as it ends, and the promise resolves with
 * all of them, in the order given.
 */
export function runChecks(
  names: readonly string[],
  print: (result: CheckResult) => void,
  command: (name: string) => [string, string[]] = npmScript,
): Promise<CheckResult[]> {
  return Promise.all(
    names.map(
      (name) =>
        new Promise<CheckResult>((resolve) => {
          const started = performance.now();
          const [file, args] = command(name);
          const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
          const chunks: Buffer[] = [];
          child.stdout.on('data', (c: Buffer) => chunks.push(c));
          child.stderr.on('data', (c: Buffer) => chunks.push(c));
          let ended = false;
          const finish = (code: number, extra = ''): void => {
            // A process that cannot start reports an error, and may close after it.
            if (ended) return;
            ended = true;
            const result = {
              name,
              code,
              output: Buffer.concat(chunks).toString('utf8') + extra,
              seconds: (performance.now() - started) / 1000,
            };
            print(result);
            resolve(result);
          };
          child.on('error', (error) => finish(1, `${error.message}\n`));
          child.on('close', (code, signal) => finish(code ?? 1, signal ? `killed by ${signal}\n` : ''));
        }),
    ),
  );
}

/** The line that ends a run: which checks failed, or that all passed. */
export function summary(results: readonly CheckResult[]): { ok: boolean; line: string } {
  const failed = results.filter((r) => r.code !== 0).map((r) => r.name);
  return failed.length === 0
    ? { ok: true, line: `Static checks passed: ${results.map((r) => r.name).join(', ')}.` }
    : { ok: false, line: `Static checks failed: ${failed.join(', ')}.` };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const results = await runChecks(STATIC_CHECKS, (r) => {
    process.stdout.write(
      `\n> ${r.name}: ${r.code === 0 ? 'passed' : `failed (exit ${r.code})`} in ${r.seconds.toFixed(1)} s\n`,
    );
    if (r.output.trim() !== '') process.stdout.write(r.output.endsWith('\n') ? r.output : `${r.output}\n`);
  });
  const { ok, line } = summary(results);
  process.stdout.write(`\n${line}\n`);
  process.exitCode = ok ? 0 : 1;
}
