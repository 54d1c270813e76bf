/**
 * The sandbox's SIP side, one per sandbox: registered numbers, simulated inbound calls and the
 * webhook deliveries that announce them. startSandbox() makes it and registers its routes.
 */
import type { Clock } from '../clock';
import type { Route } from '../route';
import { phoneNumberRoutes } from './number-routes';
import { PhoneNumberStore } from './numbers';

export interface SipDeps {
  clock: Clock;
  log: (line: string) => void;
}

export class SipService {
  readonly numbers = new PhoneNumberStore();

  constructor(private readonly deps: SipDeps) {}

  /** The `/v2/phone-numbers` routes (API key). */
  routes(): Route[] {
    return phoneNumberRoutes(this.numbers, this.deps.clock, this.deps.log);
  }

  close(): void {
    this.numbers.clear();
  }
}
