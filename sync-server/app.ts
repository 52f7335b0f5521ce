import fs from 'node:fs';
import path from 'node:path';
import express from 'express';
import type { Config } from './config';

export type AppDeps = { config: Config };

/** Builds the Express app: API routes first, then the built PWA with its fallback. */
export function createApp({ config }: AppDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');

  app.get('/api/health', (_req, res) => {
    res.json({ ok: true });
  });

  app.use('/api', (_req, res) => {
    res.status(404).json({ error: 'Not found' });
  });

  serveClient(app, config.distDir);
  return app;
}

function serveClient(app: express.Express, distDir: string): void {
  const indexFile = path.join(distDir, 'index.html');
  app.use(
    express.static(distDir, {
      index: false,
      setHeaders(res, filePath) {
        const rel = path.relative(distDir, filePath);
        if (rel.startsWith('assets' + path.sep)) {
          // Vite puts a content hash in every file name under assets/.
          res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        } else {
          // sw.js, the manifest, index.html, icons: always revalidate so updates reach users.
          res.setHeader('Cache-Control', 'no-cache');
        }
      },
    }),
  );
  app.get('/{*splat}', (_req, res) => {
    if (!fs.existsSync(indexFile)) {
      res.status(503).type('text').send('The client is not built yet. Run `npm run build`.');
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(indexFile);
  });
}
