import type { Preview } from '@storybook/react-vite';
import { mswLoader } from 'msw-storybook-addon/csf3';
import { AppProviders } from '../src/providers/AppProviders';

const preview: Preview = {
  // msw-storybook-addon 3: stories give their handlers in parameters.msw (or .handlers)
  loaders: [mswLoader()],
  decorators: [(Story) => <AppProviders><Story /></AppProviders>],
  parameters: { layout: 'fullscreen' },
};
export default preview;
