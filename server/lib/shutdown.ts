/**
 * SIGINT / SIGTERM of a server process (API, worker, SMPP listener): `close` runs once, then the
 * process exits 0 (1 when closing failed). `closing()` tells code started later not to begin.
 */
export function closeOnSignals(
  log: { info(msg: string): void; error(obj: object, msg: string): void },
  what: string,
  close: () => Promise<void>,
): { closing: () => boolean } {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info(`${signal}: ${what}`);
    try {
      await close();
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  return { closing: () => closing };
}
