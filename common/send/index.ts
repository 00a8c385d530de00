/** Rules of a send shared by the console and the server (common/send). */
export * from './time';
export * from './scope';
