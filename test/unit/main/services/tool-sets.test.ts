import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase, type Db } from '../../../../main/store/db';
import { getSetting, setSetting } from '../../../../main/store/settings';
import { BASES_KEPT, ToolSetsService } from '../../../../main/services/tool-sets';
import { toolsContract, type ToolSetState } from '../../../../shared/contract/tools';
import { WorkbenchFailure, type WorkbenchError } from '../../../../shared/contract/errors';
import type { ToolSpec } from '../../../../shared/tools/tool-spec';

const tool = (name: string, description = name): ToolSpec => ({ name, description, parameters: { type: 'object' } });
const weather: ToolSpec = { ...tool('get_weather', 'Weather'), savedReply: '{"temp":21}' };

function failureOf(fn: () => unknown): WorkbenchError {
  try {
    fn();
  } catch (error) {
    if (error instanceof WorkbenchFailure) return error.error;
    throw error;
  }
  throw new Error('expected a WorkbenchFailure');
}

describe('tool-sets', () => {
  let db: Db;
  let events: ToolSetState[];
  let service: ToolSetsService;
  beforeEach(() => {
    db = openDatabase(':memory:');
    events = [];
    service = new ToolSetsService({ db, emit: (channel, payload) => channel === 'tools.changed' && events.push(payload as ToolSetState) });
  });
  afterEach(() => closeDatabase(db));

  describe('load() and save()', () => {
    it('keeps each playground its own set, saved replies included, with a revision per save', () => {
      expect(service.load('chat')).toEqual({ playground: 'chat', revision: 0, tools: [] });
      expect(service.save('chat', 0, [weather])).toEqual({ playground: 'chat', revision: 1, tools: [weather] });
      expect(service.load('chat')).toEqual({ playground: 'chat', revision: 1, tools: [weather] });
      expect(service.load('messages')).toEqual({ playground: 'messages', revision: 0, tools: [] });
      expect(service.save('chat', 1, [])).toEqual({ playground: 'chat', revision: 2, tools: [] });
      expect(new ToolSetsService({ db, emit: () => undefined }).load('chat')).toEqual({ playground: 'chat', revision: 2, tools: [] });
    });

    it('broadcasts every save as tools.changed, so other windows follow', () => {
      service.save('responses', 0, [weather]);
      expect(events).toEqual([{ playground: 'responses', revision: 1, tools: [weather] }]);
    });

    it('reads a list saved before revisions as revision 0, and anything else as no set', () => {
      setSetting(db, 'tools.chat', [weather]);
      expect(service.load('chat')).toEqual({ playground: 'chat', revision: 0, tools: [weather] });
      setSetting(db, 'tools.responses', { broken: true });
      expect(service.load('responses')).toEqual({ playground: 'responses', revision: 0, tools: [] });
      service.save('chat', 0, [weather, tool('b')]);
      expect(getSetting(db, 'tools.chat')).toEqual({ revision: 1, tools: [weather, tool('b')] });
    });
  });

  describe('save() from a stale revision', () => {
    it('keeps both tools when two windows each add one from the same revision', () => {
      service.save('chat', 0, [weather]);
      service.save('chat', 1, [weather, tool('a')]); // window A
      const b = service.save('chat', 1, [weather, tool('b')]); // window B, not yet aware of A
      expect(b).toEqual({ playground: 'chat', revision: 3, tools: [weather, tool('a'), tool('b')] });
      expect(service.load('chat').tools.map((t) => t.name)).toEqual(['get_weather', 'a', 'b']);
      expect(events.at(-1)).toEqual(b);
    });

    it('merges an edit of one tool with a removal of another', () => {
      service.save('chat', 0, [tool('a'), tool('b')]);
      service.save('chat', 1, [tool('a', 'edited in A'), tool('b')]);
      expect(service.save('chat', 1, [tool('a')]).tools).toEqual([tool('a', 'edited in A')]);
    });

    it('refuses, naming the tool, when both windows changed the same tool differently, and writes nothing', () => {
      service.save('chat', 0, [tool('a'), tool('b')]);
      service.save('chat', 1, [tool('a', 'from A'), tool('b')]);
      const error = failureOf(() => service.save('chat', 1, [tool('a', 'from B'), tool('b'), tool('c')]));
      expect(error.code).toBe('conflict');
      expect(error.message).toBe('Not saved: the tool "a" was also changed in another window. Keep your version or take theirs.');
      expect(error.issues).toEqual([{ path: 'a', message: 'changed in another window too (chat tools)' }]);
      expect(service.load('chat')).toEqual({ playground: 'chat', revision: 2, tools: [tool('a', 'from A'), tool('b')] });
      expect(events).toHaveLength(2);
    });

    it('treats an edit in one window and a removal in the other as a conflict', () => {
      service.save('chat', 0, [tool('a')]);
      service.save('chat', 1, []);
      expect(failureOf(() => service.save('chat', 1, [tool('a', 'kept editing')])).code).toBe('conflict');
    });

    it('keeps a tool changed the same way in both windows once', () => {
      service.save('chat', 0, [tool('a')]);
      service.save('chat', 1, [tool('a', 'same')]);
      expect(service.save('chat', 1, [tool('a', 'same')]).tools).toEqual([tool('a', 'same')]);
    });

    it('refuses a save from a revision too old to merge against, and one from a revision not made yet', () => {
      for (let r = 0; r <= BASES_KEPT; r++) service.save('chat', r, [tool(`t${r}`)]);
      const stale = failureOf(() => service.save('chat', 0, [tool('late')]));
      expect(stale.code).toBe('conflict');
      expect(stale.message).toMatch(/changed elsewhere too many times/);
      expect(failureOf(() => service.save('chat', 999, [])).code).toBe('invalid_input');
    });

    it('refuses a stale save after a restart (the earlier revisions are gone) rather than dropping tools', () => {
      service.save('chat', 0, [tool('a')]);
      service.save('chat', 1, [tool('a'), tool('b')]);
      const restarted = new ToolSetsService({ db, emit: () => undefined });
      expect(failureOf(() => restarted.save('chat', 1, [tool('a'), tool('c')])).code).toBe('conflict');
      expect(restarted.save('chat', 2, [tool('a'), tool('b'), tool('c')]).revision).toBe(3);
    });
  });

  it('refuses more than 128 tools, unknown fields, unknown playgrounds and a missing revision at the contract', () => {
    const save = toolsContract.save.input;
    expect(save.safeParse({ playground: 'chat', baseRevision: 0, tools: Array.from({ length: 129 }, () => weather) }).success).toBe(false);
    expect(save.safeParse({ playground: 'chat', baseRevision: 0, tools: [{ ...weather, apiKey: 'x' }] }).success).toBe(false);
    expect(save.safeParse({ playground: 'completions', baseRevision: 0, tools: [] }).success).toBe(false);
    expect(save.safeParse({ playground: 'messages', tools: [weather] }).success).toBe(false);
    expect(save.safeParse({ playground: 'messages', baseRevision: -1, tools: [weather] }).success).toBe(false);
    expect(save.safeParse({ playground: 'messages', baseRevision: 3, tools: [weather] }).success).toBe(true);
  });
});
