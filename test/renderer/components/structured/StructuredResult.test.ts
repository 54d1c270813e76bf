import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import StructuredResult from '@/components/structured/StructuredResult.vue';

let wrapper: VueWrapper | undefined;
afterEach(() => wrapper?.unmount());

const schema = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, qty: { type: 'integer', minimum: 1 } }, required: ['name'] } },
  },
  required: ['city'],
  additionalProperties: false,
};

function show(text: string, s: Record<string, unknown> | null = schema, streaming = false): VueWrapper {
  wrapper = mount(StructuredResult, { props: { text, schema: s, streaming } });
  return wrapper;
}

describe('StructuredResult', () => {
  it('shows a matching reply as a tree and says it matches', () => {
    const w = show('{"city":"Paris","items":[{"name":"bread","qty":2}]}');
    expect(w.text()).toContain('✓ Matches the schema.');
    expect(w.find('[data-path="/items/0/name"]').text()).toContain('name:"bread"');
    expect(w.findAll('.node--bad')).toHaveLength(0);
  });

  it('marks each violation on its node and lists them', () => {
    const w = show('{"items":[{"name":"a","qty":1},{"qty":0},{"name":7,"qty":1}],"extra":true}');
    expect(w.text()).toContain('5 schema violations:');
    expect(w.findAll('.violations li').map((li) => li.text())).toEqual([
      '(root) missing required property "city"',
      '/items/1 missing required property "name"',
      '/items/1/qty must be at least 1, got 0',
      '/items/2/name expected string, got integer',
      '/extra property "extra" is not allowed (additionalProperties is false)',
    ]);
    expect(w.findAll('.node--bad').map((n) => n.attributes('data-path'))).toEqual(['', '/items/1', '/items/1/qty', '/items/2/name', '/extra']);
    expect(w.find('[data-path="/items/2/name"] .node-problems').text()).toBe('expected string, got integer');
    expect(w.find('[data-path="/items/0"]').classes()).not.toContain('node--bad');
  });

  it('says where a reply stops being JSON', () => {
    const w = show('{"city": "Paris",}');
    expect(w.find('[role="alert"]').text()).toBe(
      'The reply is not valid JSON: Unexpected "}", expected a property name in double quotes at line 1, column 18 (position 17)',
    );
  });

  it('waits quietly while the JSON is still streaming', () => {
    expect(show('{"city": "Pa', schema, true).text()).toBe('Receiving JSON…');
  });

  it('collapses a branch and still flags a problem inside it', async () => {
    const w = show('{"items":[{"name":7}],"city":"x"}');
    await w.find('button[aria-label="Collapse items"]').trigger('click');
    expect(w.find('[data-path="/items/0/name"]').exists()).toBe(false);
    expect(w.find('[data-path="/items"]').text()).toContain('[1 item]');
    expect(w.find('[data-path="/items"] .inside-mark').exists()).toBe(true);
  });

  it('shows a json_object reply without a schema as a tree', () => {
    const w = show('[1, 2]', null);
    expect(w.text()).toContain('No schema to check against.');
    expect(w.find('[data-path="/1"]').text()).toContain('2');
  });
});
