import type { Preview } from '@storybook/react-vite';
import { initialize, mswLoader } from 'msw-storybook-addon';
import { AppProviders } from '../src/providers/AppProviders';

initialize({ onUnhandledRequest: 'bypass', quiet: true });

const preview: Preview = {
  loaders: [mswLoader],
  decorators: [(Story) => <AppProviders><Story /></AppProviders>],
  parameters: { layout: 'fullscreen' },
};
export default preview;
