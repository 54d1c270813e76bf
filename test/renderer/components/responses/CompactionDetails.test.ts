import { describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import type { ResponseNode } from '@shared/families/responses/contract';
import CompactionDetails from '@/families/responses/components/CompactionDetails.vue';

const compaction: ResponseNode = {
  id: 'cmp_AbC123xYz', kind: 'compaction', parentId: 'resp_1', connectionId: 'sandbox', runId: null, model: 'svc-4', createdAt: 0,
  expiresAt: null, serverState: 'stored', status: 'completed', inputPreview: '', outputPreview: '',
  droppedMessageCount: 2, droppedMessages: [{ role: 'user', preview: 'What is **2+2**?' }, { role: 'assistant', preview: '`4`' }], tokensSaved: 10,
};

describe('CompactionDetails', () => {
  it('shows the id as recorded, outside the title that upper-cases its text', () => {
    const w = mount(CompactionDetails, { props: { node: compaction } });
    const id = w.find('.node-id');
    expect(id.text()).toBe('cmp_AbC123xYz');
    expect(id.element.closest('.panel-title')).toBeNull();
    expect(w.find('.panel-title').text()).not.toContain('cmp_');
    w.unmount();
  });

  it('lists the dropped messages as plain text', () => {
    const w = mount(CompactionDetails, { props: { node: compaction } });
    expect(w.findAll('.dropped li span:last-child').map((s) => s.text())).toEqual(['What is 2+2?', '4']);
    w.unmount();
  });
});
