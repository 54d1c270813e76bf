/**
 * The catalogue prices of the model a realtime call runs, for the cost of each response: loaded
 * when the call starts and again when the service says the session's model changed (the
 * catalogue is cached; a failure only leaves the cost unknown, and is logged once per model).
 */
import type { TokenPrices } from '../../shared/cost';

export interface CallPrices {
  /** The prices of the model last loaded; null while unknown. */
  readonly current: TokenPrices | null;
  /** Loads `model`'s prices unless they are the ones held. */
  load(model: string): Promise<void>;
}

export function callPrices(lookup: ((connectionId: string, model: string) => Promise<TokenPrices | null>) | undefined, connectionId: string, log: (line: string) => void): CallPrices {
  let current: TokenPrices | null = null;
  let pricedModel: string | null = null;
  return {
    get current() {
      return current;
    },
    async load(model) {
      if (!lookup || model === pricedModel) return;
      pricedModel = model;
      current = await lookup(connectionId, model).catch((error: unknown) => {
        log(`[realtime] no prices for ${model}: ${error instanceof Error ? error.message : String(error)}`);
        return null;
      });
    },
  };
}
