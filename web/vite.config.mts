import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress.mjs';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('.'),
  // Where the service serves the console (src/console/console-files.ts).
  base: '/console/',
  // The components' JSX is Preact's: no React, no compatibility layer.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    // Inside the service's build, which serves it (deleted and rebuilt with it).
    outDir: here('../dist/console'),
    emptyOutDir: true,
    target: 'es2022',
    // Hashed names under assets/: the service serves them as immutable.
    assetsDir: 'assets',
    // No inline data: URLs for the Content-Security-Policy to allow.
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
  plugins: [precompress()],
  server: {
    // `npm run console:dev`: the page from Vite, the API from a service on its default port.
    proxy: { '/v1': 'http://localhost:9091' },
  },
});
