/**
 * A CPU profile of this process over a window of a benchmark (node:inspector), written as a
 * .cpuprofile file (Chromium DevTools, speedscope). An empty path: nothing is recorded.
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';

export async function startCpuProfile(path: string): Promise<{ stop(): Promise<void> }> {
  if (!path) return { async stop() {} };
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      fs.writeFileSync(path, JSON.stringify(profile));
      session.disconnect();
      console.log(`  CPU profile: ${path}`);
    },
  };
}

/**
 * A sampling heap profile of this process over a window of a benchmark (what allocates, by call
 * stack: the garbage collector's work), written as a .heapprofile file (Chromium DevTools). An
 * empty path: nothing is recorded.
 */
export async function startHeapProfile(path: string): Promise<{ stop(): Promise<void> }> {
  if (!path) return { async stop() {} };
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  // every 16 KB allocated on average; objects the GC has already collected stay in the profile
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 16384,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return {
    async stop() {
      const { profile } = await session.post('HeapProfiler.stopSampling');
      fs.writeFileSync(path, JSON.stringify(profile));
      session.disconnect();
      console.log(`  heap profile: ${path}`);
    },
  };
}
