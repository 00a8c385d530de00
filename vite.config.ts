import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import path from 'node:path';
import { generate } from './scripts/generate';

const apiPort = process.env.PORT ?? '8080';

/**
 * src/generated is made from schemas/ (not committed): before a build or the dev server starts
 * (`npm run gen` runs first as well), and again whenever a schema changes while `npm run dev` runs.
 */
function schemaGen(): Plugin {
  const dir = path.resolve(import.meta.dirname, 'schemas');
  return {
    name: 'schema-gen',
    async buildStart() {
      await generate();
    },
    configureServer(server) {
      server.watcher.add(dir);
      const regenerate = (file: string) => {
        if (file.startsWith(dir + path.sep))
          generate().catch((e) => server.config.logger.error(`gen: ${e instanceof Error ? e.message : e}`));
      };
      server.watcher.on('change', regenerate).on('add', regenerate).on('unlink', regenerate);
    },
  };
}

export default defineConfig({
  plugins: [schemaGen(), react()],
  resolve: {
    alias: {
      '@': path.resolve(import.meta.dirname, 'src'),
      // RJSF renders descriptions as markdown only on request, which our forms never make
      'markdown-to-jsx/react': path.resolve(import.meta.dirname, 'src/lib/plain-markdown.tsx'),
    },
  },
  server: {
    port: 5173,
    // /static/scripts/city.json: the invoice address tree, served by the API server (docs/api-invoice.md)
    proxy: {
      '/api': `http://127.0.0.1:${apiPort}`,
      '/static/scripts': `http://127.0.0.1:${apiPort}`,
      '/openapi': `http://127.0.0.1:${apiPort}`,
    },
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
