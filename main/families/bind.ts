/**
 * A service is its family's handler: each operation of the contract family is the service's
 * method of the same name. The host calls handlers as plain functions, so the methods are bound
 * here (once, generically: no hand forwarding). A method missing at run time throws at start-up;
 * its type is checked where app.ts assembles HandlersFor<WorkbenchContract>.
 */
import type { Family } from '../../shared/contract/define';

/** The operations (not events) of contract family `F`. */
type OpsOf<F extends Family> = { [K in keyof F]: F[K] extends { kind: 'event' } ? never : K }[keyof F];

export function bindOps<F extends Family, S extends object>(family: F, service: S): Pick<S, OpsOf<F> & keyof S> {
  const out: Record<string, unknown> = {};
  for (const [name, op] of Object.entries(family)) {
    if (op.kind === 'event') continue;
    const method = (service as Record<string, unknown>)[name];
    if (typeof method !== 'function') throw new Error(`${service.constructor.name} has no method ${name} for its contract operation`);
    out[name] = method.bind(service);
  }
  return out as Pick<S, OpsOf<F> & keyof S>;
}
