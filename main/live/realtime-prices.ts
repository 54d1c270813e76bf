/**
 * The catalogue prices of the model a realtime call runs, for the cost of each response: loaded
 * when the call starts and again when the service says the session's model changed (the
 * catalogue is cached; a failure only leaves the cost unknown, and is logged once per model).
 * modelPrices() is the one lookup behind them and behind the recovered calls' pricing
 * (realtime-recovered-cost.ts): main/app.ts makes one and hands it to both.
 */
import type { TokenPrices } from '../../shared/cost';
import type { CatalogueEntry } from '../../shared/families/models/contract';

/** A model's catalogue prices on a connection (null: the catalogue has no prices for it); may reject. */
export type PriceLookup = (connectionId: string, model: string) => Promise<TokenPrices | null>;

/**
 * The price lookup shared by live and recovered calls, over a connection's catalogue (the models
 * service, which keeps an answer for a few minutes and drops it when the profile changes). At
 * start-up the recovered calls are priced while a call may be starting, each asking before any
 * catalogue is held: per connection one request is in flight and every asker shares it, instead
 * of one catalogue fetch (four listings) each. A failed request is not kept: the next asks again.
 */
export function modelPrices(catalogue: (connectionId: string) => Promise<{ entries: readonly CatalogueEntry[] }>): PriceLookup {
  const inFlight = new Map<string, Promise<{ entries: readonly CatalogueEntry[] }>>();
  return async (connectionId, model) => {
    let asked = inFlight.get(connectionId);
    if (!asked) {
      asked = catalogue(connectionId);
      inFlight.set(connectionId, asked);
      const forget = () => void inFlight.delete(connectionId);
      asked.then(forget, forget);
    }
    const { entries } = await asked;
    return entries.find((e) => e.id === model || e.aliases.includes(model))?.prices ?? null;
  };
}

export interface CallPrices {
  /** The prices of the model last loaded; null while unknown. */
  readonly current: TokenPrices | null;
  /** Loads `model`'s prices unless they are the ones held. */
  load(model: string): Promise<void>;
}

export function callPrices(lookup: PriceLookup | undefined, connectionId: string, log: (line: string) => void): CallPrices {
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
