import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { precompressAssets } from './scripts/precompress';
import { CHUNK_GROUPS, chunkGroupsPlugin } from './scripts/chunk-groups';

const apiTarget = process.env.API_ORIGIN ?? `http://127.0.0.1:${process.env.API_PORT ?? 8080}`;

export default defineConfig({
  root: 'client',
  publicDir: '../public',
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    sourcemap: false,
    // Every browser the app supports (its service worker, web push, IndexedDB) knows
    // <link rel="modulepreload">: the polyfill would cost the public entry about 0.5 kB gzip.
    modulePreload: { polyfill: false },
    // The signed-in shell and the data layer in a chunk each, not dozens (scripts/chunk-groups.ts).
    rolldownOptions: { output: { codeSplitting: { groups: CHUNK_GROUPS } } },
  },
  server: {
    proxy: {
      // ws: the chat socket is /api/chat/<conversationId> on the same server.
      '/api': { target: apiTarget, changeOrigin: false, ws: true },
    },
  },
  plugins: [
    react(),
    chunkGroupsPlugin(),
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      manifest: {
        name: 'Creative Gigs',
        short_name: 'Gigs',
        description: 'A marketplace where creatives post gigs and hire each other.',
        start_url: '/landing',
        scope: '/',
        display: 'standalone',
        background_color: '#fffaf3',
        theme_color: '#3b2f8f',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      // A service worker of our own (client/sw/service-worker.ts) for web push; Workbox still
      // precaches the build (the manifest is injected) and serves the offline navigation.
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,woff2}'],
      },
    }),
    // assets/x.js.br and .gz beside each hashed file, sent as they are (sync-server/http/precompressed.ts).
    precompressAssets(),
  ],
});
