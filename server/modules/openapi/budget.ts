/**
 * What unauthenticated requests to the signed HTTP API may cost one client address (issue 35 item
 * 4): the bytes of bodies whose signature did not hold (plus UNVERIFIED_OVERHEAD a request, for its
 * headers and its work), counted per address over WINDOW_MS, at most `limit`; the bodies still
 * arriving or waiting for their signature's check count too, so that many large bodies sent at once
 * cannot all be held in memory before the first one fails. An address past its budget is refused
 * before its body is read (ADDRESS_THROTTLED). A request whose signature holds gives its bytes back.
 *
 * Kept in this process's memory: it bounds this process's memory and work (each API process has its
 * own budget). At most MAX_ADDRESSES addresses are remembered; past that, the addresses with nothing
 * in flight are forgotten, oldest first.
 */

/** the budget's window */
export const BUDGET_WINDOW_MS = 10 * 60_000;
/** what a request whose signature failed costs besides its body */
export const UNVERIFIED_OVERHEAD = 1024;
const MAX_ADDRESSES = 100_000;

interface AddressUse {
  windowStart: number;
  /** bytes of failed requests in this window */
  spent: number;
  /** bytes received of requests not yet settled */
  inFlight: number;
}

/** One request's share of its address's budget; settled once (verified or not). */
export interface BudgetTicket {
  readonly address: string;
  bytes: number;
  settled: boolean;
}

export class UnverifiedBudget {
  private readonly byAddress = new Map<string, AddressUse>();

  constructor(
    /** bytes a window (0 or less: no budget) */
    private readonly limit: number,
    private readonly now: () => number,
  ) {}

  private use(address: string): AddressUse {
    const t = this.now();
    let u = this.byAddress.get(address);
    if (!u) {
      if (this.byAddress.size >= MAX_ADDRESSES) this.forget(t);
      u = { windowStart: t, spent: 0, inFlight: 0 };
      this.byAddress.set(address, u);
    } else if (t - u.windowStart >= BUDGET_WINDOW_MS || t < u.windowStart) {
      u.windowStart = t;
      u.spent = 0;
    }
    return u;
  }

  private forget(t: number) {
    for (const [a, u] of this.byAddress)
      if (u.inFlight === 0 && t - u.windowStart >= BUDGET_WINDOW_MS) this.byAddress.delete(a);
    for (const [a, u] of this.byAddress) {
      if (this.byAddress.size < MAX_ADDRESSES) break;
      if (u.inFlight === 0) this.byAddress.delete(a);
    }
  }

  /**
   * A request of `address` announcing `declared` body bytes (its Content-Length; 0 when unknown):
   * its ticket, or the seconds to wait when the address has no budget left for it.
   */
  open(address: string, declared: number): BudgetTicket | { retryAfter: number } {
    if (!(this.limit > 0)) return { address, bytes: 0, settled: false };
    const u = this.use(address);
    if (u.spent + u.inFlight + Math.max(0, declared || 0) > this.limit) {
      return { retryAfter: Math.max(1, Math.ceil((u.windowStart + BUDGET_WINDOW_MS - this.now()) / 1000)) };
    }
    return { address, bytes: 0, settled: false };
  }

  /** `n` more bytes of the ticket's body arrived; false when its address is now past its budget. */
  add(ticket: BudgetTicket, n: number): boolean {
    if (ticket.settled) return true;
    ticket.bytes += n;
    if (!(this.limit > 0)) return true;
    const u = this.use(ticket.address);
    u.inFlight += n;
    return u.spent + u.inFlight <= this.limit;
  }

  /** The request is over: a verified one gives its bytes back, any other spends them. */
  settle(ticket: BudgetTicket, verified: boolean): void {
    if (ticket.settled) return;
    ticket.settled = true;
    if (!(this.limit > 0)) return;
    const u = this.use(ticket.address);
    u.inFlight = Math.max(0, u.inFlight - ticket.bytes);
    if (!verified) u.spent += ticket.bytes + UNVERIFIED_OVERHEAD;
  }

  /** seconds until the address's window ends (for Retry-After) */
  retryAfter(address: string): number {
    const u = this.byAddress.get(address);
    return u ? Math.max(1, Math.ceil((u.windowStart + BUDGET_WINDOW_MS - this.now()) / 1000)) : 1;
  }
}
