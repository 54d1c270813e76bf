/**
 * Connection profiles: the built-in sandbox and the user's own. Mirrors main's state and keeps
 * it fresh through `connections.onChanged` (another window may change it too).
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type { ConnectionProfile, ConnectionsState, ConnectionTestResult, SaveConnectionInput } from '@shared/contract/connections';
import type { WorkbenchError } from '@shared/contract/errors';
import { useWorkbench } from '../api';
import { toWorkbenchError } from '../lib/errors';
import { onLinkRegained } from '../composables/use-link-regained';

export const useConnectionsStore = defineStore('connections', () => {
  const state = shallowRef<ConnectionsState | null>(null);
  const loading = ref(false);
  const error = ref<WorkbenchError | null>(null);
  /** Whether the Connections dialog is open (a refused key's error opens it from anywhere). */
  const dialogOpen = ref(false);
  let unsubscribe: (() => void) | null = null;

  const profiles = computed<ConnectionProfile[]>(() => state.value?.profiles ?? []);
  const activeId = computed(() => state.value?.activeId ?? null);
  const active = computed(() => profiles.value.find((p) => p.id === activeId.value) ?? null);
  const isSandbox = computed(() => active.value?.kind === 'sandbox');
  const keyWarning = computed(() => state.value?.keyStorage.warning ?? null);
  /** The built-in sandbox's key and ports (null until loaded). */
  const sandbox = computed(() => state.value?.sandbox ?? null);

  // Cut off from main, the profiles may have changed (another window, a restart): read them again.
  onLinkRegained(() => {
    if (state.value !== null || error.value) void load();
  });

  /** Loads the profiles and starts following changes pushed by main. */
  async function load(): Promise<void> {
    const api = useWorkbench();
    if (!unsubscribe) unsubscribe = api.connections.onChanged((next) => (state.value = next));
    loading.value = true;
    try {
      state.value = await api.connections.list();
      error.value = null;
    } catch (err) {
      error.value = toWorkbenchError(err);
    } finally {
      loading.value = false;
    }
  }

  /** Makes a profile the active one (rejects with WorkbenchFailure). */
  async function select(id: string): Promise<void> {
    state.value = await useWorkbench().connections.select({ id });
  }

  /** Creates or updates a profile; an empty apiKey keeps the stored key. */
  async function save(input: SaveConnectionInput): Promise<ConnectionProfile> {
    const payload: SaveConnectionInput = { ...input };
    if (!payload.apiKey) delete payload.apiKey;
    const saved = await useWorkbench().connections.save(payload);
    state.value = await useWorkbench().connections.list();
    return saved;
  }

  async function remove(id: string): Promise<void> {
    state.value = await useWorkbench().connections.remove({ id });
  }

  /** Lists the profile's models to prove the URL and key work. */
  async function test(id: string): Promise<ConnectionTestResult> {
    return useWorkbench().connections.test({ id });
  }

  /** The sandbox's port from the next launch (null: back to the last used / the default). */
  async function setSandboxPort(port: number | null): Promise<void> {
    state.value = await useWorkbench().connections.setSandboxPort({ port });
  }

  function dispose(): void {
    unsubscribe?.();
    unsubscribe = null;
  }

  return { dialogOpen, state, loading, error, profiles, activeId, active, isSandbox, keyWarning, sandbox, load, select, save, remove, test, setSandboxPort, dispose };
});
