/** SIP: phone numbers with their signing secrets in the key store, the loopback webhook receiver, ringing calls, refer and hangup. */
import { sipContract } from '../../../shared/families/sip/contract';
import { bindOps } from '../bind';
import type { FamilyDeps, MainFamily } from '../types';
import { SipService } from './sip-service';

export const sipMain = {
  id: 'sip',
  contract: 'sip',
  async create(deps: FamilyDeps) {
    if (!deps.keyStore) throw new Error('The SIP family needs the key store (FamilyDeps.keyStore) for its signing secrets.');
    const service = new SipService({ db: deps.db, connections: deps.connections, keyStore: deps.keyStore, emit: deps.emit, log: deps.log, live: deps.live ?? (() => null), notify: deps.notify });
    deps.addDisposer?.(() => service.dispose());
    await service.resume();
    return { handlers: bindOps(sipContract, service) };
  },
} as const satisfies MainFamily;
