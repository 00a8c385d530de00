/**
 * 签名报备 pages (/template/SignReport), for src/screens.tsx. Each page is lazy, so it stays its
 * own chunk; stories and other code import the files directly.
 */
import { lazy } from 'react';

export const SignList = lazy(() => import('./SignList'));
