import type { StorybookConfig } from '@storybook/react-vite';
import { lateDeps } from './late-deps';

const config: StorybookConfig = {
  stories: ['../src/**/*.stories.@(ts|tsx)'],
  addons: ['@storybook/addon-docs', '@storybook/addon-vitest'],
  framework: { name: '@storybook/react-vite', options: {} },
  // the MSW worker serves stories only: kept out of public/ so the production build never ships it
  staticDirs: ['./public'],
  viteFinal: (config) => ({
    ...config,
    optimizeDeps: { ...config.optimizeDeps, include: [...(config.optimizeDeps?.include ?? []), ...lateDeps] },
  }),
};
export default config;
