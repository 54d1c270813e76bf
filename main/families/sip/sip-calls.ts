/**
 * The calls that ring in this run of the app: each verified delivery starts a `sip-call` live
 * session owned by main (main/live/sip-call.ts: no window needed), attached here so the SIP panel
 * hears every change (`sip.callChanged`) and its buttons act through the session (which records
 * them). A call this run did not start (the app restarted while it rang) is controlled directly.
 */
import { WorkbenchFailure } from '../../../shared/contract/errors';
import type { TypedEmit } from '../../../shared/contract/typed-emit';
import type { SipCall } from '../../../shared/families/sip/contract';
import { applySipCallEvent, ringingSipCall, SIP_CALL_KIND, type SipCallControl, type SipCallEvent, type SipCallInput, type SipCallSnapshot } from '../../../shared/sip-call';
import type { LiveAttachment, LiveRegistry } from '../../live/registry';
import type { IncomingCall } from '../../webhooks/receiver';

interface Entry {
  snapshot: SipCallSnapshot;
  liveSessionId: string;
  connectionId: string;
  sandbox: boolean;
  attachment: LiveAttachment;
}

export interface SipCallsDeps {
  live: () => LiveRegistry | null;
  emit: TypedEmit;
  log: (line: string) => void;
  /** A desktop notification (Electron): a call rings even with every window closed or hidden. */
  notify?: (title: string, body: string) => void;
  /** Whether a connection's callers are simulated (a sandbox: its caller's keys can be pressed from here). */
  isSandbox?: (connectionId: string) => boolean;
  /** For a call no session of this run holds. */
  direct: { hangup(connectionId: string | undefined, callId: string): Promise<void>; refer(connectionId: string | undefined, callId: string, target: string): Promise<void> };
}

export class SipCalls {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly deps: SipCallsDeps) {}

  private isSandbox(connectionId: string): boolean {
    try {
      return this.deps.isSandbox?.(connectionId) ?? false;
    } catch {
      return false; // A connection removed since: no pad.
    }
  }

  list(): SipCall[] {
    return [...this.entries.values()].map((e) => view(e));
  }

  /** Starts the call's live session. A throw answers the delivery 500 (the service retries it). */
  async ring(incoming: IncomingCall, connectionId: string): Promise<void> {
    if (this.entries.has(incoming.callId)) return; // Another delivery of a call already ringing.
    const registry = this.deps.live();
    if (!registry) throw new Error('live sessions are not ready yet');
    const input: SipCallInput = { callId: incoming.callId, from: incoming.from, to: incoming.to, connectionId, webhookId: incoming.webhookId, receivedAt: incoming.receivedAt, event: incoming.event as Record<string, unknown> };
    const liveSessionId = await registry.start(SIP_CALL_KIND, input, { origin: 'main' });
    const snapshot: SipCallSnapshot = ringingSipCall(incoming);
    const callId = incoming.callId;
    // In the map before attaching: the snapshot arrives during attach().
    const entry: Entry = { snapshot, liveSessionId, connectionId, sandbox: this.isSandbox(connectionId), attachment: { detach: () => {}, control: () => Promise.reject(new Error('not attached yet')), snapshot: () => ({ type: 'error', error: { code: 'internal', message: 'not attached yet' } }) } };
    this.entries.set(callId, entry);
    this.deps.notify?.('Incoming call', `${incoming.from ?? 'An unknown caller'} is calling ${incoming.to ?? 'your number'}. Answer or decline it in Phone (SIP).`);
    entry.attachment = await registry.attach(liveSessionId, {
      deliver: (chunk) => {
        const e = this.entries.get(callId);
        if (!e) return;
        if (chunk.type === 'snapshot') e.snapshot = structuredClone(chunk.snapshot as SipCallSnapshot);
        else if (chunk.type === 'event') applySipCallEvent(e.snapshot, chunk.event as SipCallEvent);
        else return;
        this.deps.emit('sip.callChanged', view(e));
      },
      // Its last state was announced by the event that ended it.
      ended: () => void this.entries.delete(callId),
    });
  }

  /** The connection a call of this run came in on (its number's). */
  connectionOf(callId: string): string | undefined {
    return this.entries.get(callId)?.connectionId;
  }

  async answer(callId: string): Promise<{ mediaSessionId: string }> {
    const e = this.entries.get(callId);
    if (!e) throw new WorkbenchFailure({ code: 'not_found', message: `Call ${callId} is not ringing in this app (it ended, or rang before the app started).` });
    await e.attachment.control({ type: 'answer' } satisfies SipCallControl);
    return { mediaSessionId: e.snapshot.mediaSessionId ?? '' };
  }

  async decline(callId: string, connectionId?: string): Promise<void> {
    const e = this.entries.get(callId);
    if (e) await e.attachment.control({ type: 'decline' } satisfies SipCallControl);
    else await this.deps.direct.hangup(connectionId, callId);
  }

  async hangup(callId: string, connectionId?: string): Promise<void> {
    const e = this.entries.get(callId);
    if (e) await e.attachment.control({ type: e.snapshot.state === 'ringing' ? 'decline' : 'hangup' } satisfies SipCallControl);
    else await this.deps.direct.hangup(connectionId, callId);
  }

  async refer(callId: string, target: string, connectionId?: string): Promise<void> {
    const e = this.entries.get(callId);
    if (e) await e.attachment.control({ type: 'refer', target } satisfies SipCallControl);
    else await this.deps.direct.refer(connectionId, callId, target);
  }

  detachAll(): void {
    for (const e of this.entries.values()) e.attachment.detach();
    this.entries.clear();
  }
}

function view({ snapshot: s, liveSessionId, sandbox }: Entry): SipCall {
  return { sandbox, callId: s.callId, from: s.from, to: s.to, at: s.receivedAt, state: s.state, liveSessionId, mediaSessionId: s.mediaSessionId, problem: s.problem, digits: s.digits.map((d) => d.digit).join(''), endReason: s.endReason };
}
