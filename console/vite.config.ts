import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

// One static bundle: index.html plus hashed assets, served by the local stack and by CloudFront.
// No inline scripts or styles (the CSP forbids them); /v1 is the same origin in both places.
export default defineConfig({
  plugins: [preact({ prerender: { enabled: false } })],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    reportCompressedSize: true,
    chunkSizeWarningLimit: 400,
  },
  server: {
    proxy: { '/v1': 'http://127.0.0.1:8080' },
  },
});
