/**
 * What other modules use of the dispatch side (not a plugin: the pipeline is started by
 * server/main.ts and server/worker.ts): queueing a task's messages, the carrier slot of a number,
 * releasing held messages. The pipeline itself is ./pipeline.ts.
 */
export { carrierSlot, enqueueTask, enqueueTaskSql, releaseMessages } from './sql';
