/**
 * Security headers on every answer:
 * - Content-Security-Policy: scripts only from the console's own origin (no inline script, no
 *   eval): every validator the console runs is compiled at build time (src/generated/forms,
 *   scripts/form-validators.ts), none in the browser. Styles from the origin plus inline ones, because antd 5's CSS-in-JS (and React's
 *   `style` props) inject <style> elements and style attributes at run time. A nonce would not
 *   cover style attributes and would force every HTML answer to be rendered per request; inline
 *   styles cannot run code, so 'unsafe-inline' for style-src only is the usual trade-off.
 *   Images also from https: (notices published by the operator may show pictures from elsewhere).
 *   frame-ancestors 'none' (with X-Frame-Options DENY for old browsers): no page of ours in a frame.
 * - X-Content-Type-Options: nosniff; Referrer-Policy: same-origin (no URL leaves the site).
 * - /api answers: Cache-Control: no-store unless the route chose its own caching.
 */
import type { FastifyInstance } from 'fastify';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  // the upload's MD5 runs in WebAssembly (md5-wasm): 'wasm-unsafe-eval' lets it compile, JavaScript eval stays refused
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function installSecurityHeaders(app: FastifyInstance) {
  app.addHook('onRequest', async (req, reply) => {
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    reply.header('x-frame-options', 'DENY');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    const p = req.url.split('?')[0];
    if (p === '/api' || p.startsWith('/api/')) reply.header('cache-control', 'no-store');
  });
}
