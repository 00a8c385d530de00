/**
 * The process's own figures (prom-client's default metrics: CPU, resident memory, heap, event-loop
 * lag, handles, GC, file descriptors): one registry per process, not per app, since they describe
 * the process and prom-client's event-loop monitor and GC observer are never stopped once started
 * (a registry per app would leave one running for every app a test builds). Made at the first
 * scrape: the event-loop figures cover the time since then, each scrape starting a new window.
 * Never the library's global registry.
 */
import { collectDefaultMetrics, Registry } from 'prom-client';

let registry: Registry | null = null;

export function processRegistry(): Registry {
  if (!registry) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry });
  }
  return registry;
}
