/**
 * The carrier link (SMPP) as the dispatcher sees it. Contract: /work/notes/contract-sending.md
 * ("SMPP link interface"); rules in docs/api-dispatch.md "SMPP link and simulator".
 */
export interface SubmitRequest {
  ref: number /* sms_messages.id */;
  to: string;
  from: string;
  text: string;
}
export type SubmitResult =
  /** a text sent as several submits (link option long=udh|sar): `parts` = every part's message id in part order (msgId = the first) */
  | { ref: number; status: 'accepted'; msgId: string; parts?: string[] }
  | { ref: number; status: 'rejected'; code: string } // final: state 4, code e.g. '0x0000000B'
  | { ref: number; status: 'retry'; code: string; afterMs: number } // throttled / queue full / not bound: not accepted, try later
  | { ref: number; status: 'unconfirmed'; code: string }; // written, no response (link dropped / timeout): never resubmitted
export interface Receipt {
  msgId: string;
  delivered: boolean;
  stat: string;
  err: string;
  doneAt: Date;
  /** other readings of msgId to match by when it matches no message as written (hex ↔ decimal: `receipt_id`) */
  readings?: string[];
  /** the number the receipt is for (deliver_sm source_addr): matches a message recorded without its id (unconfirmed) */
  phone?: string;
}
export interface MoMessage {
  from: string;
  to: string;
  text: string;
  smscRef: string;
  receivedAt: Date;
}
export interface SmscLink {
  /** resolves when every request has an outcome; keeps at most `window` submits in flight */
  submit(batch: SubmitRequest[]): Promise<SubmitResult[]>;
  /** receipts / MO are acknowledged to the SMSC only after the handler resolves (persisted) */
  onReceipts(handler: (r: Receipt[]) => Promise<void>): void;
  onMo(handler: (m: MoMessage[]) => Promise<void>): void;
  readonly ready: boolean;
  /** messages the link can have on the wire at once (window × connections); absent: unbounded */
  readonly capacity?: number;
  close(): Promise<void>;
}
