/** What a run panel reads of a text run: its state as a store or reactive() exposes it. */
import type { UnwrapNestedRefs } from 'vue';
import type { TextRun } from '../../composables/use-text-run';

type RunState = Pick<
  TextRun<unknown>,
  'phase' | 'choices' | 'usage' | 'costTicks' | 'error' | 'isSandbox' | 'polls' | 'retryNote' | 'ttfbMs' | 'record' | 'retries' | 'meta' | 'waiting' | 'retryNow'
>;

/** A text run's state with refs unwrapped (a Pinia store wrapping useTextRun is one). */
export type RunView = UnwrapNestedRefs<RunState>;
