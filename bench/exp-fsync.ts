import fs from 'node:fs/promises';
const fh = await fs.open('/tmp/exp/j.jsonl', 'a');
const line = Buffer.from(JSON.stringify({ x: 'a'.repeat(700) }) + '\n');
const lat: number[] = [];
for (let i = 0; i < 2000; i++) {
  const t = performance.now();
  await fh.write(line);
  await fh.datasync();
  lat.push(performance.now() - t);
}
lat.sort((a, b) => a - b);
console.log('p50', lat[1000], 'p95', lat[1900], 'p99', lat[1980], 'max', lat[1999]);
