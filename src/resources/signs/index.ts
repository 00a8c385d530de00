/** 签名报备: resource `signs` (src/providers/resources.ts), route /template/SignReport. */
export { SignList } from './SignList';
export { SignAddDialog } from './SignAddDialog';
export { SignImportDialog } from './SignImportDialog';
