import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy*/waitFor wait up to 5 s: on a loaded two-core CI machine antd renders can take over 1 s
configure({ asyncUtilTimeout: 5000 });

// antd reads matchMedia, which jsdom lacks
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener() {},
      removeListener() {},
      addEventListener() {},
      removeEventListener() {},
      dispatchEvent: () => false,
    }) as any;
}

// the unit project runs its files in one environment per worker (isolate: false): what one test
// leaves in the DOM or in storage is cleared before the next, whatever file it is in
afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
});
