/**
 * The signing secrets the receiver accepts: one per registered number, and during a rotation the
 * number's previous secret too, until its grace ends (deliveries already signed or retried with the
 * old one still pass; after the grace only the new one does). Secrets stay in memory here; they are
 * persisted with the keys by whoever owns the numbers.
 */
import type { AcceptedSecret } from './verify';

/** How long an old secret is still accepted after a rotation, by default: a day. */
export const ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;

interface Entry {
  current: string;
  previous: { secret: string; until: number } | null;
}

export class SecretRing {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Sets the secret of `ownerId` (a phone number's id), with no previous one. */
  set(ownerId: string, secret: string): void {
    this.entries.set(ownerId, { current: secret, previous: null });
  }

  /** Makes `secret` current for `ownerId`; the one it replaces stays accepted for `graceMs`. */
  rotate(ownerId: string, secret: string, graceMs: number = ROTATION_GRACE_MS): void {
    const old = this.entries.get(ownerId);
    const previous = old && old.current !== secret ? { secret: old.current, until: this.now() + graceMs } : (old?.previous ?? null);
    this.entries.set(ownerId, { current: secret, previous });
  }

  /** Ends a rotation at once: only the current secret is accepted. */
  endRotation(ownerId: string): void {
    const e = this.entries.get(ownerId);
    if (e) e.previous = null;
  }

  delete(ownerId: string): void {
    this.entries.delete(ownerId);
  }

  /** Every secret accepted now; `id` names the owner (and `:previous` for an old secret). */
  accepted(): AcceptedSecret[] {
    const now = this.now();
    const out: AcceptedSecret[] = [];
    for (const [id, e] of this.entries) {
      out.push({ id, secret: e.current });
      if (e.previous && e.previous.until > now) out.push({ id: `${id}:previous`, secret: e.previous.secret });
    }
    return out;
  }

  /** Owners whose previous secret is still accepted, with when it stops being. */
  rotations(): Array<{ ownerId: string; until: number }> {
    const now = this.now();
    return [...this.entries].filter(([, e]) => e.previous && e.previous.until > now).map(([ownerId, e]) => ({ ownerId, until: e.previous?.until ?? 0 }));
  }

  get size(): number {
    return this.entries.size;
  }
}
