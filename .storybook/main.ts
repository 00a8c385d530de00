import type { StorybookConfig } from '@storybook/react-vite';
import { lateDeps } from './late-deps';

const config: StorybookConfig = {
  stories: ['../src/**/*.stories.@(ts|tsx)'],
  addons: ['@storybook/addon-docs', '@storybook/addon-vitest'],
  framework: { name: '@storybook/react-vite', options: {} },
  staticDirs: ['../public'],
  viteFinal: (config) => ({ ...config, optimizeDeps: { ...config.optimizeDeps, include: [...(config.optimizeDeps?.include ?? []), ...lateDeps] } }),
};
export default config;
