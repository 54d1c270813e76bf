/** Phone (SIP): its nav icon, its view (numbers, the webhook receiver, ringing calls), its History entry (a call is a recorded session), and the shell's ringing banner. */
import SessionRunDetails from '../../components/history/SessionRunDetails.vue';
import IncomingCallBanner from './components/IncomingCallBanner.vue';
import { drawing } from '../icons';
import type { RendererFamily } from '../types';

export const sipRenderer = {
  id: 'sip',
  // A telephone handset.
  icon: drawing(['path', 'M5 4h4l2 5-2.5 1.5a11 11 0 0 0 5 5L15 13l5 2v4a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2']),
  view: () => import('./views/SipView.vue'),
  historyEntry: SessionRunDetails,
  // A ringing call is announced on every view, with Answer / Decline.
  shell: IncomingCallBanner,
} as const satisfies RendererFamily;
