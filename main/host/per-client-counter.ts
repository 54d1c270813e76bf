/** Counts what each remote address holds open (sockets, tabs) against one limit. */
export class PerClientCounter {
  private readonly open = new Map<string, number>();

  constructor(private readonly limit: number) {}

  /** Counts one more for `address`, or returns false (and counts nothing) at the limit. */
  tryOpen(address: string): boolean {
    const held = this.open.get(address) ?? 0;
    if (held >= this.limit) return false;
    this.open.set(address, held + 1);
    return true;
  }

  release(address: string): void {
    const held = (this.open.get(address) ?? 1) - 1;
    if (held <= 0) this.open.delete(address);
    else this.open.set(address, held);
  }
}
