import '@testing-library/jest-dom/vitest';

// antd reads matchMedia, which jsdom lacks
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({ matches: false, media: query, onchange: null, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false }) as any;
}

// findBy*/waitFor wait up to 5 s: on a loaded two-core CI machine antd renders can take over 1 s
import { configure } from '@testing-library/react';
configure({ asyncUtilTimeout: 5000 });
