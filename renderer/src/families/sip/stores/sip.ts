/**
 * The SIP panel's state: the connection's phone numbers, the receiver's status (kept current by
 * `sip.receiverChanged`), the calls ringing or answered (`sip.calls`, then `sip.callChanged`;
 * an ended call stays listed with its outcome until the panel is left), the secret of the number
 * just registered (shown once: forgotten when dismissed or when the panel is left), and the
 * actions — register, start the receiver, answer, decline, transfer (refer), hang up.
 *
 * The call console holds one call at a time (it takes an answered SIP call only when idle): while
 * this window's console has a call that goes on (`consoleCall`, a realtime session attached here),
 * Answer can end it first, as a phone's call waiting does (answerEndingConsoleCall).
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type { WorkbenchError } from '@shared/contract/errors';
import type { SipCall, SipNumber, SipReceiverStatus, SipRegistered, SipRegisterInput } from '@shared/families/sip/contract';
import { useWorkbench } from '../../../api';
import { REALTIME_CALL_KIND } from '@shared/realtime-call/input';
import { toWorkbenchError } from '../../../lib/errors';
import { useLiveSessionsStore } from '../../../stores/live-sessions';

/** What Answer does (AnswerCall): answer, or, while the console has a call, end it first or keep it. */
export type AnswerChoice = 'answer' | 'end-and-answer' | 'keep-and-answer';

export const useSipStore = defineStore('sip', () => {
  const numbers = shallowRef<SipNumber[]>([]);
  const receiver = shallowRef<SipReceiverStatus | null>(null);
  const calls = shallowRef<SipCall[]>([]);
  /** The registration just made, with its secret: shown once. */
  const registered = shallowRef<SipRegistered | null>(null);
  const loading = ref(false);
  const error = ref<WorkbenchError | null>(null);
  let offs: Array<() => void> = [];
  const live = useLiveSessionsStore();
  /** The call this window's console holds and that goes on (a realtime session attached here), or null. */
  const consoleCall = computed(() => [...live.views.values()].find((v) => v.attached && v.summary?.kind === REALTIME_CALL_KIND && v.summary.status !== 'ended') ?? null);
  /** The calls are followed for the whole window (the shell's ringing banner), not only while the panel is open. */
  let offCalls: (() => void) | null = null;

  function subscribe(): void {
    watchCalls();
    if (offs.length > 0) return;
    offs = [useWorkbench().sip.onReceiverChanged((status) => (receiver.value = status))];
  }

  /** Follows the calls (`sip.callChanged`) and picks up those already ringing (a reloaded window); once per window. */
  function watchCalls(): void {
    if (offCalls) return;
    const api = useWorkbench();
    offCalls = api.sip.onCallChanged(upsert);
    api.sip.calls(undefined).then((list) => list.forEach(upsert), () => undefined);
  }

  function upsert(call: SipCall): void {
    const i = calls.value.findIndex((c) => c.callId === call.callId);
    calls.value = i < 0 ? [...calls.value, call] : calls.value.map((c, k) => (k === i ? call : c));
  }

  async function load(): Promise<void> {
    const first = !offCalls;
    subscribe();
    loading.value = true;
    error.value = null;
    try {
      if (!first) useWorkbench().sip.calls(undefined).then((list) => list.forEach(upsert), () => undefined);
      const listed = await useWorkbench().sip.numbers(undefined);
      numbers.value = listed.numbers;
      receiver.value = listed.receiver;
    } catch (err) {
      error.value = toWorkbenchError(err);
      // The receiver is ours, not the service's: show it even when listing failed.
      receiver.value = await useWorkbench().sip.receiver(undefined).catch(() => receiver.value);
    } finally {
      loading.value = false;
    }
  }

  /**
   * Registers a number; the error (the service's words) is thrown to the form. After a 409 (the
   * number is registered already) or no answer (it may have been made), the list is read again so
   * the number shows if it is this team's.
   */
  async function register(input: SipRegisterInput): Promise<SipRegistered> {
    let made: SipRegistered;
    try {
      made = await useWorkbench().sip.register(input);
    } catch (err) {
      const e = toWorkbenchError(err);
      if (e.status === 409 || e.code === 'timeout' || e.code === 'network') {
        await useWorkbench().sip.numbers(undefined).then((listed) => (numbers.value = listed.numbers), () => undefined);
      }
      throw err;
    }
    registered.value = made;
    receiver.value = made.receiver;
    numbers.value = [...numbers.value.filter((n) => n.number.phone_number_id !== made.number.phone_number_id), { number: made.number, secretKept: made.secret.stored }];
    return made;
  }

  /** Keeps a secret given by hand (a number registered elsewhere, or a new secret: a rotation). */
  async function keepSecret(n: SipNumber, secret: string): Promise<{ rotated: boolean }> {
    const kept = await useWorkbench().sip.keepSecret({ phoneNumberId: n.number.phone_number_id, phoneNumber: n.number.phone_number, secret });
    numbers.value = numbers.value.map((x) => (x.number.phone_number_id === n.number.phone_number_id ? { ...x, secretKept: true } : x));
    return kept;
  }

  /** Forgets the secret shown once. */
  function dismissSecret(): void {
    registered.value = null;
  }

  async function startReceiver(): Promise<void> {
    receiver.value = await useWorkbench().sip.startReceiver(undefined);
  }

  /** Each throws the reason to the panel (the console missing, a refused transfer); the call's new state comes as `callChanged`. */
  const answer = (callId: string) => useWorkbench().sip.answer({ callId });
  /** Ends the console's call (its recording kept), then answers: the console, idle again, shows the answered call. */
  async function answerEndingConsoleCall(callId: string): Promise<{ mediaSessionId: string }> {
    const held = consoleCall.value;
    if (held) await live.stop(held.id);
    return answer(callId);
  }
  const decline = async (callId: string) => void (await useWorkbench().sip.decline({ callId }));
  const hangup = async (callId: string) => void (await useWorkbench().sip.hangup({ callId }));
  const transfer = async (callId: string, target: string) => void (await useWorkbench().sip.refer({ callId, target }));
  /** The sandbox's simulated caller presses keys (refused on a real service); they come back as the call's `digits`. */
  const pressKeys = async (callId: string, digits: string) => void (await useWorkbench().sip.pressKeys({ callId, digits }));

  function dispose(): void {
    offs.forEach((off) => off());
    offs = [];
    registered.value = null;
  }

  return { numbers, receiver, calls, registered, loading, error, consoleCall, load, register, keepSecret, dismissSecret, startReceiver, answer, answerEndingConsoleCall, decline, hangup, transfer, pressKeys, watchCalls, dispose };
});
