import { ensureClientBuilt } from './build-client';
import { readConfig } from './config';
import { startServer } from './server';

const config = readConfig();
await ensureClientBuilt(config.distDir);
const server = await startServer(config);
if (!config.publicOrigin && config.logLevel !== 'silent') {
  console.warn(
    `PUBLIC_ORIGIN is not set: the app accepts requests only as http://localhost:${server.port} (or 127.0.0.1, [::1]${config.host ? `, ${config.host}` : ''}). ` +
      'Set PUBLIC_ORIGIN to the address users reach it on (e.g. https://gigs.example).',
  );
}
if (config.logLevel === 'info') {
  console.log(`Creative Gigs is serving on ${server.url} (data in ${config.dataDir})`);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
