import { createServer } from 'vite';
import { readConfig } from './config';
import { startServer } from './server';

// `npm run dev`: the API on API_PORT (default 8081) and Vite's dev server on PORT proxying to it.
const apiPort = Number(process.env.API_PORT ?? 8081);
process.env.API_PORT = String(apiPort);
const appPort = Number(process.env.PORT ?? 8080);
// The browser is on Vite's port, not the API's: that is the app's origin unless one is configured.
const config = readConfig({ PUBLIC_ORIGIN: `http://localhost:${appPort}`, ...process.env, PORT: String(apiPort) });
const api = await startServer(config);
const vite = await createServer({ configFile: 'vite.config.ts', server: { port: appPort } });
await vite.listen();
console.log(`API on ${api.url}; app with hot reload on http://localhost:${vite.config.server.port}`);
