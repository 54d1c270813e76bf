import { describe, expect, it } from 'vitest';
import { effectScope } from 'vue';
import { useToolLoop, type UseToolLoopOptions } from '@/composables/use-tool-loop';
import type { PendingCall } from '@shared/tools/pending-calls';
import type { ToolReply } from '@shared/tools/replies';
import type { ToolSpec } from '@shared/tools/tool-spec';

const tools: ToolSpec[] = [
  { name: 'get_weather', description: '', parameters: { type: 'object' }, savedReply: '{"t":1}' },
  { name: 'get_time', description: '', parameters: { type: 'object' } },
];

/** A fake model that calls get_weather `calls` times, then answers in words. */
function model(calls: number, name = 'get_weather') {
  let pending: PendingCall[] = [{ id: 'call_0', name, arguments: '{}' }];
  const sent: ToolReply[][] = [];
  const opts: UseToolLoopOptions = {
    pendingCalls: () => pending,
    tools: () => tools,
    continueWith: async (replies) => {
      sent.push(replies);
      pending = sent.length < calls ? [{ id: `call_${sent.length}`, name, arguments: '{}' }] : [];
    },
  };
  return { opts, sent };
}

function run(opts: UseToolLoopOptions) {
  return effectScope().run(() => useToolLoop(opts))!;
}

describe('useToolLoop', () => {
  describe('loop()', () => {
    it('answers with saved replies until the model stops calling tools', async () => {
      const m = model(3);
      const loop = run(m.opts);
      await loop.loop();
      expect(m.sent).toEqual([[{ callId: 'call_0', output: '{"t":1}' }], [{ callId: 'call_1', output: '{"t":1}' }], [{ callId: 'call_2', output: '{"t":1}' }]]);
      expect(loop.turn.value).toBe(3);
      expect(loop.looping.value).toBe(false);
      expect(loop.note.value).toBe('Done after 3 turns: the model answered without calling a tool.');
    });

    it('stops after the maximum number of turns', async () => {
      const m = model(Infinity);
      const loop = run({ ...m.opts, maxTurns: 10 });
      await loop.loop();
      expect(m.sent).toHaveLength(10);
      expect(loop.note.value).toBe('Stopped after 10 turns: the model was still calling tools.');
    });

    it('stops when a called tool has no saved reply', async () => {
      const m = model(2, 'get_time');
      const loop = run(m.opts);
      await loop.loop();
      expect(m.sent).toEqual([]);
      expect(loop.note.value).toBe('Stopped: get_time has no saved reply. Answer it by hand or save a reply in the tool.');
    });

    it('stops when a turn did not complete', async () => {
      const m = model(5);
      const loop = run({ ...m.opts, lastRunOk: () => false });
      await loop.loop();
      expect(m.sent).toHaveLength(1);
      expect(loop.note.value).toBe('Stopped at turn 1: the run did not complete.');
    });
  });

  describe('cancel()', () => {
    it('stops the run in flight and the loop after it', async () => {
      const m = model(Infinity);
      let release: () => void = () => {};
      let stopped = 0;
      const loop = run({
        ...m.opts,
        continueWith: (replies) => new Promise<void>((resolve) => {
          m.sent.push(replies);
          release = resolve;
        }),
        stop: () => {
          stopped++;
          release();
        },
      });
      const done = loop.loop();
      await Promise.resolve();
      expect(loop.looping.value).toBe(true);
      await loop.cancel();
      await done;
      expect(stopped).toBe(1);
      expect(m.sent).toHaveLength(1);
      expect(loop.note.value).toBe('Cancelled after 1 turn.');
    });
  });
});
