import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase, type Db } from '../../../../main/store/db';
import { setSetting } from '../../../../main/store/settings';
import { loadToolSet, saveToolSet } from '../../../../main/services/tool-sets';
import { toolsContract } from '../../../../shared/contract/tools';

const weather = { name: 'get_weather', description: 'Weather', parameters: { type: 'object' }, savedReply: '{"temp":21}' };

describe('tool-sets', () => {
  let db: Db;
  beforeEach(() => {
    db = openDatabase(':memory:');
  });
  afterEach(() => closeDatabase(db));

  it('keeps each playground its own set, saved replies included, and an empty save clears it', () => {
    expect(loadToolSet(db, 'chat')).toEqual([]);
    expect(saveToolSet(db, 'chat', [weather])).toEqual({ saved: 1 });
    expect(loadToolSet(db, 'chat')).toEqual([weather]);
    expect(loadToolSet(db, 'messages')).toEqual([]);
    saveToolSet(db, 'chat', []);
    expect(loadToolSet(db, 'chat')).toEqual([]);
  });

  it('reads a stored value that is not a list as no set', () => {
    setSetting(db, 'tools.responses', { broken: true });
    expect(loadToolSet(db, 'responses')).toEqual([]);
  });

  it('refuses more than 128 tools, unknown fields and unknown playgrounds at the contract', () => {
    const save = toolsContract.save.input;
    expect(save.safeParse({ playground: 'chat', tools: Array.from({ length: 129 }, () => weather) }).success).toBe(false);
    expect(save.safeParse({ playground: 'chat', tools: [{ ...weather, apiKey: 'x' }] }).success).toBe(false);
    expect(save.safeParse({ playground: 'completions', tools: [] }).success).toBe(false);
    expect(save.safeParse({ playground: 'messages', tools: [weather] }).success).toBe(true);
  });
});
