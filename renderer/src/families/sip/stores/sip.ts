/**
 * The SIP panel's state: the connection's phone numbers, the receiver's status (kept current by
 * `sip.receiverChanged`), the calls that ring (`sip.ringing`), the secret of the number just
 * registered (shown once: forgotten when dismissed or when the panel is left), and the actions —
 * register, start the receiver, decline (hangup), transfer (refer).
 */
import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import type { WorkbenchError } from '@shared/contract/errors';
import type { SipNumber, SipReceiverStatus, SipRegistered, SipRegisterInput, SipRingingCall } from '@shared/families/sip/contract';
import { useWorkbench } from '../../../api';
import { toWorkbenchError } from '../../../lib/errors';

export const useSipStore = defineStore('sip', () => {
  const numbers = shallowRef<SipNumber[]>([]);
  const receiver = shallowRef<SipReceiverStatus | null>(null);
  const ringing = shallowRef<SipRingingCall[]>([]);
  /** The registration just made, with its secret: shown once. */
  const registered = shallowRef<SipRegistered | null>(null);
  const loading = ref(false);
  const error = ref<WorkbenchError | null>(null);
  let offs: Array<() => void> = [];

  function subscribe(): void {
    if (offs.length > 0) return;
    const api = useWorkbench();
    offs = [
      api.sip.onReceiverChanged((status) => (receiver.value = status)),
      api.sip.onRinging((call) => {
        if (!ringing.value.some((c) => c.callId === call.callId)) ringing.value = [...ringing.value, call];
      }),
    ];
  }

  async function load(): Promise<void> {
    subscribe();
    loading.value = true;
    error.value = null;
    try {
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

  /** Registers a number; the error (the service's words) is thrown to the form. */
  async function register(input: SipRegisterInput): Promise<SipRegistered> {
    const made = await useWorkbench().sip.register(input);
    registered.value = made;
    receiver.value = made.receiver;
    numbers.value = [...numbers.value.filter((n) => n.number.phone_number_id !== made.number.phone_number_id), { number: made.number, secretKept: made.secret.stored }];
    return made;
  }

  /** Forgets the secret shown once. */
  function dismissSecret(): void {
    registered.value = null;
  }

  async function startReceiver(): Promise<void> {
    receiver.value = await useWorkbench().sip.startReceiver(undefined);
  }

  const dropCall = (callId: string) => (ringing.value = ringing.value.filter((c) => c.callId !== callId));

  async function decline(callId: string): Promise<void> {
    await useWorkbench().sip.hangup({ callId });
    dropCall(callId);
  }

  async function hangup(callId: string): Promise<void> {
    await useWorkbench().sip.hangup({ callId });
    dropCall(callId);
  }

  async function transfer(callId: string, target: string): Promise<void> {
    await useWorkbench().sip.refer({ callId, target });
    dropCall(callId);
  }

  function dispose(): void {
    offs.forEach((off) => off());
    offs = [];
    registered.value = null;
  }

  return { numbers, receiver, ringing, registered, loading, error, load, register, dismissSecret, startReceiver, decline, hangup, transfer, dispose };
});
