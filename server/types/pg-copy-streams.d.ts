declare module 'pg-copy-streams' {
  import type { Writable, Readable } from 'node:stream';
  export interface CopyStreamQuery extends Writable {
    rowCount: number;
    submit(connection: unknown): void;
  }
  export function from(text: string): CopyStreamQuery;
  export function to(text: string): Readable;
}
