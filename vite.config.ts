import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import path from 'node:path';

const apiPort = process.env.PORT ?? '8080';

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: {
      '@': path.resolve(import.meta.dirname, 'src'),
      // RJSF renders descriptions as markdown only on request, which our forms never make
      'markdown-to-jsx/react': path.resolve(import.meta.dirname, 'src/lib/plain-markdown.tsx'),
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': `http://127.0.0.1:${apiPort}` },
  },
  build: {
    outDir: 'dist',
    manifest: true,
    chunkSizeWarningLimit: 2000,
    rolldownOptions: {
      treeshake: {
        // rc-field-form (antd Form's store) declares no "sideEffects": antd's inputs import its
        // context, which would keep all of it on every page with an input. Its modules have no
        // side effects: let unused parts go. Every other module keeps its package's declaration.
        moduleSideEffects: (id) => (/[\\/]node_modules[\\/]rc-field-form[\\/]/.test(id) ? false : undefined),
      },
    },
  },
});
