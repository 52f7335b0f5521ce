import { Worker } from 'node:worker_threads';

/**
 * SQL run on a connection of its own that returns once committed, synchronously: from inside a
 * store's decision (which cannot await), another instance's write lands between two attempts.
 * The worker thread has its own event loop; this thread blocks on `Atomics.wait` until it answers.
 */
export async function writerElsewhere(url: string): Promise<{ run(sql: string): void; close(): Promise<number> }> {
  const done = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const pg = require('pg');
     const client = new pg.Client({ connectionString: workerData.url });
     const signal = (state) => { Atomics.store(workerData.done, 0, state); Atomics.notify(workerData.done, 0); };
     client.connect().then(() => parentPort.postMessage('ready'));
     parentPort.on('message', (sql) => client.query(sql).then(() => signal(1), (err) => { console.error(err); signal(2); }));`,
    { eval: true, workerData: { url, done } },
  );
  await new Promise((resolve) => worker.once('message', resolve));
  return {
    run(sql) {
      Atomics.store(done, 0, 0);
      worker.postMessage(sql);
      if (Atomics.wait(done, 0, 0, 10_000) === 'timed-out') throw new Error('the write elsewhere took over 10 s');
      if (Atomics.load(done, 0) !== 1) throw new Error(`the write elsewhere failed: ${sql}`);
    },
    close: () => worker.terminate(),
  };
}
