/**
 * The parts of the `smpp` package (0.5.1, node_modules/smpp/lib/*.js) that server/modules/smsc
 * uses. The library is CommonJS: `import smpp from 'smpp'`.
 */
declare module 'smpp' {
  import type { EventEmitter } from 'node:events';
  import type { Socket } from 'node:net';
  import type { Server as NetServer } from 'node:net';

  /** A decoded PDU: header fields plus the command's parameters and TLVs as properties. */
  export interface PDU {
    command: string;
    command_id: number;
    command_status: number;
    sequence_number: number;
    command_length: number;
    isResponse(): boolean;
    response(options?: Record<string, unknown>): PDU;
    toBuffer(): Buffer;
    // the parameters these tests and modules read by name; other parameters / TLVs as unknown
    system_id?: string;
    password?: string;
    message_id?: string;
    source_addr?: string;
    destination_addr?: string;
    esm_class?: number;
    data_coding?: number;
    registered_delivery?: number;
    /** decoded: { message, udh? } (the library splits the UDH off when esm_class says so) */
    short_message?: { message: string | Buffer; udh?: Buffer[] };
    message_payload?: { message: string | Buffer } | Buffer;
    network_error_code?: Buffer | number[];
    [key: string]: unknown;
  }
  export const PDU: {
    new (command: string, options?: Record<string, unknown>): PDU;
    new (buffer: Buffer): PDU;
    maxLength: number;
  };

  export interface SessionOptions {
    socket?: Socket;
    host?: string;
    port?: number;
    tls?: boolean;
    auto_enquire_link_period?: number;
    [key: string]: unknown;
  }

  export type ResponseCallback = (pdu: PDU) => void;

  export class Session extends EventEmitter {
    constructor(options: SessionOptions);
    socket: Socket;
    paused: boolean;
    server?: Server;
    /** false when the socket is not writable (nothing was written) */
    send(pdu: PDU, responseCallback?: ResponseCallback, sendCallback?: ResponseCallback): boolean;
    pause(): void;
    resume(): void;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
    // command shortcuts: new PDU(command, options) then send
    bind_transceiver(options: Record<string, unknown>, responseCallback?: ResponseCallback): boolean;
    submit_sm(
      options: Record<string, unknown>,
      responseCallback?: ResponseCallback,
      sendCallback?: ResponseCallback,
    ): boolean;
    deliver_sm(options: Record<string, unknown>, responseCallback?: ResponseCallback): boolean;
    enquire_link(options?: Record<string, unknown> | ResponseCallback, responseCallback?: ResponseCallback): boolean;
    unbind(options?: Record<string, unknown> | ResponseCallback, responseCallback?: ResponseCallback): boolean;
  }

  export interface Server extends NetServer {
    sessions: Session[];
  }

  export interface Encoding {
    match(value: string): boolean;
    encode(value: string): Buffer;
    decode(value: Buffer): string;
  }

  export interface TlvType {
    read(buffer: Buffer, offset: number, length: number): unknown;
    write(value: unknown, buffer: Buffer, offset: number): void;
    size(value: unknown): number;
  }

  export function createServer(options: Record<string, unknown>, listener?: (session: Session) => void): Server;
  export function createServer(listener?: (session: Session) => void): Server;
  export function addTLV(tag: string, options: { id: number; type: TlvType; multiple?: boolean }): void;

  export const encodings: { ASCII: Encoding; LATIN1: Encoding; UCS2: Encoding; detect(value: string): string | false };
  export const types: {
    tlv: { int8: TlvType; int16: TlvType; int32: TlvType; cstring: TlvType; string: TlvType; buffer: TlvType };
  };
  export const tlvs: Record<string, { id: number; type: TlvType }>;
  export const errors: Record<string, number>;
  export const consts: {
    ESM_CLASS: Record<string, number>;
    ENCODING: Record<string, number>;
    MESSAGE_STATE: Record<string, number>;
    REGISTERED_DELIVERY: Record<string, number>;
  };

  const smpp: {
    PDU: typeof PDU;
    Session: typeof Session;
    createServer: typeof createServer;
    addTLV: typeof addTLV;
    encodings: typeof encodings;
    types: typeof types;
    tlvs: typeof tlvs;
    errors: typeof errors;
    consts: typeof consts;
  };
  export default smpp;
}
