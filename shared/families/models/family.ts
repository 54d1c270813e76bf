/** Models: the catalogue (`/v1/models` and friends); its listings are not recorded as runs. */
import { modelsContract } from './contract';
import type { SharedFamily } from '../types';

export const modelsFamily = {
  id: 'models',
  contract: { key: 'models', ops: modelsContract },
  nav: { route: '/models', label: 'Models', icon: 'models', order: 110 },
  entry: 'text',
  endpoints: {},
} as const satisfies SharedFamily;
