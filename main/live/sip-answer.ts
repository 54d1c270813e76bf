/**
 * How Answer reaches the realtime call console: the realtime call kind (`realtime`,
 * shared/realtime-call) started by main, joined to the SIP call with `callId` and the connection's
 * API key (the spec refuses a client secret with `call_id`), with no microphone and no playback of
 * its own (the caller's audio comes from the service, and the caller hears the model there). The
 * console window attaches to that session like to any other. While the app has no `realtime`
 * kind, there is no answerer, and the SIP call says so.
 */
import { REALTIME_CALL_KIND, type RealtimeCallInputDraft } from '../../shared/realtime-call/input';
import type { RealtimeCallSnapshot } from '../../shared/realtime-call/snapshot';
import type { LiveAttachment, LiveRegistry } from './registry';
import type { CallAnswerer } from './sip-call';

export interface RealtimeAnswererOptions {
  registry: () => LiveRegistry | null;
  /** Whether the app's kinds include the realtime call kind. */
  available: () => boolean;
  /** The session a phone call gets (model, voice, instructions, tools…); default the service's. */
  session?: () => Omit<RealtimeCallInputDraft, 'connectionId' | 'auth' | 'callId' | 'microphone' | 'output'>;
}

export function realtimeAnswerer(opts: RealtimeAnswererOptions): () => CallAnswerer | null {
  const answerer: CallAnswerer = {
    async answer({ callId, connectionId }) {
      const registry = opts.registry();
      if (!registry) throw new Error('live sessions are not ready yet');
      const input: RealtimeCallInputDraft = { ...opts.session?.(), connectionId, auth: 'key', callId, microphone: { kind: 'none' }, output: { kind: 'none' } };
      return { liveSessionId: await registry.start(REALTIME_CALL_KIND, input, { origin: 'main' }) };
    },
    async follow(liveSessionId, sink) {
      const registry = opts.registry();
      let attachment: LiveAttachment;
      try {
        if (!registry) throw new Error('live sessions are not ready yet');
        attachment = await registry.attach(liveSessionId, {
          deliver: (chunk) => {
            if (chunk.type === 'event') sink.event(chunk.event);
            // The keys pressed before we attached (the session was still starting) are in its snapshot.
            else if (chunk.type === 'snapshot') {
              const keys = (chunk.snapshot as Partial<RealtimeCallSnapshot> | null)?.dtmf;
              if (Array.isArray(keys)) sink.keys?.(keys);
            }
          },
          ended: (summary) => sink.ended(summary),
        });
      } catch {
        // Gone before we could follow it (the caller hung up at once): the call is over.
        sink.ended(null);
        return () => {};
      }
      return () => attachment.detach();
    },
  };
  return () => (opts.available() ? answerer : null);
}
