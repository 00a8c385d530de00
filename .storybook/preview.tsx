import type { Preview } from '@storybook/react-vite';
import { mswLoader } from 'msw-storybook-addon/csf3';
import { AppProviders } from '../src/providers/AppProviders';

// msw-storybook-addon 3: the CSF 3 loader starts the worker (quietly, unhandled requests pass
// through) and applies each story's `parameters.msw.handlers`.
const preview: Preview = {
  loaders: [mswLoader()],
  decorators: [
    (Story) => (
      <AppProviders>
        <Story />
      </AppProviders>
    ),
  ],
  parameters: { layout: 'fullscreen' },
};
export default preview;
