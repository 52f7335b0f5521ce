import { readConfig } from '../../sync-server/config';
import { startServer } from '../../sync-server/server';

// The real server in a child process (for kill tests), without the client build step of `npm start`.
const server = await startServer(readConfig());
console.log(`serving on http://127.0.0.1:${server.port}`);
