import { ensureClientBuilt } from './build-client';
import { readConfig } from './config';
import { startServer } from './server';

const config = readConfig();
await ensureClientBuilt(config.distDir);
const server = await startServer(config);
if (config.logLevel === 'info') {
  console.log(`Creative Gigs is serving on ${server.url} (data in ${config.dataDir})`);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
