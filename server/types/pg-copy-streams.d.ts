declare module 'pg-copy-streams' {
  import type { Writable, Readable } from 'node:stream';
  export interface CopyStreamQuery extends Writable {
    rowCount: number;
    submit(connection: unknown): void;
  }
  export interface CopyToStreamQuery extends Readable {
    /** the rows COPY wrote, from its CommandComplete (which may come after the stream's end) */
    rowCount: number;
    submit(connection: unknown): void;
    /** node-postgres calls it when the statement is over (after CommandComplete); a no-op of the library's */
    handleReadyForQuery(): void;
  }
  export function from(text: string): CopyStreamQuery;
  export function to(text: string): CopyToStreamQuery;
}
