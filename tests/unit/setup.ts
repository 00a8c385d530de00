import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';

// findBy*/waitFor wait up to 5 s: on a loaded two-core CI machine antd renders can take over 1 s
configure({ asyncUtilTimeout: 5000 });

// antd reads matchMedia, which jsdom lacks
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({ matches: false, media: query, onchange: null, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false }) as any;
}
