import { afterEach, describe, expect, it } from 'vitest';
import { effectScope, type EffectScope } from 'vue';
import { useFileDrop, type FileDrop } from '@/composables/use-file-drop';

let scope: EffectScope | undefined;
afterEach(() => scope?.stop());

function listen(target?: EventTarget): { drop: FileDrop; got: File[][] } {
  const got: File[][] = [];
  scope = effectScope();
  const drop = scope.run(() => useFileDrop(target, (files) => got.push(files)))!;
  return { drop, got };
}

/** A drag event as a browser makes it: the files only readable on drop, the types always. */
function drag(type: string, files: File[] | null, on: EventTarget = window): Event {
  const event = new Event(type, { bubbles: true, cancelable: true });
  const types = files ? ['Files'] : ['text/plain'];
  Object.defineProperty(event, 'dataTransfer', { value: { types, files: files ?? [], dropEffect: 'none' } });
  on.dispatchEvent(event);
  return event;
}

describe('use-file-drop', () => {
  describe('useFileDrop()', () => {
    it('shows "drop here" while files are dragged over the window and hands over the dropped files', () => {
      const { drop, got } = listen();
      const files = [new File(['a'], 'a.txt'), new File(['b'], 'b.txt')];
      drag('dragenter', files);
      expect(drop.isOver.value).toBe(true);
      expect(drag('dragover', files).defaultPrevented).toBe(true);
      const dropped = drag('drop', files);
      expect(dropped.defaultPrevented).toBe(true);
      expect(got).toEqual([files]);
      expect(drop.isOver.value).toBe(false);
    });

    it('does not flicker when the drag crosses child elements, and clears when it leaves', () => {
      const { drop } = listen();
      const files = [new File(['a'], 'a.txt')];
      drag('dragenter', files);
      drag('dragenter', files);
      drag('dragleave', files);
      expect(drop.isOver.value).toBe(true);
      drag('dragleave', files);
      expect(drop.isOver.value).toBe(false);
    });

    it('leaves drags without files alone', () => {
      const { drop, got } = listen();
      drag('dragenter', null);
      expect(drag('dragover', null).defaultPrevented).toBe(false);
      expect(drop.isOver.value).toBe(false);
      expect(drag('drop', null).defaultPrevented).toBe(false);
      expect(got).toEqual([]);
    });

    it('listens on a given element only', () => {
      const zone = document.createElement('div');
      document.body.append(zone);
      const { drop, got } = listen(zone);
      const files = [new File(['a'], 'a.txt')];
      drag('dragenter', files, document.body);
      expect(drop.isOver.value).toBe(false);
      drag('dragenter', files, zone);
      drag('drop', files, zone);
      expect(got).toEqual([files]);
      zone.remove();
    });

    it('stops listening when its scope ends', () => {
      const { drop, got } = listen();
      scope!.stop();
      const files = [new File(['a'], 'a.txt')];
      drag('dragenter', files);
      drag('drop', files);
      expect(drop.isOver.value).toBe(false);
      expect(got).toEqual([]);
    });
  });
});
