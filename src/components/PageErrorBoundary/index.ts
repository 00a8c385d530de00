export { PageErrorBoundary, PageErrorView, PAGE_ERROR_TEXTS, isChunkLoadError } from './PageErrorBoundary';
