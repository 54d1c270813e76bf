/**
 * The markdown renderer (markdown-it, highlight.js, DOMPurify: about a third of the page's script)
 * loaded when an answer first needs it instead of before the first view can be used. The app asks
 * for it once it is idle after start-up (`preloadMarkdown`), so by the time a first answer streams
 * it is normally already here; until it is, the answer shows as plain text. Once loaded, every
 * later answer renders it directly (no async step), which keeps streaming unchanged.
 */
import { defineComponent, h, shallowRef, type Component } from 'vue';

/** A component that renders `load()`'s component once loaded and plain text before, and its preload. */
export function lazyMarkdown(load: () => Promise<Component>) {
  const loaded = shallowRef<Component | null>(null);
  let loading: Promise<Component> | null = null;

  /** Starts loading the renderer (once); later calls share the same load. */
  function preload(): Promise<Component> {
    loading ??= load().then((component) => (loaded.value = component));
    return loading;
  }

  const component = defineComponent({
    name: 'AsyncStreamingMarkdown',
    props: {
      text: { type: String, required: true },
      streaming: { type: Boolean, default: false },
    },
    setup(props) {
      if (!loaded.value) void preload();
      return () =>
        loaded.value
          ? h(loaded.value, { text: props.text, streaming: props.streaming })
          : h('div', { class: 'markdown-loading', style: 'white-space: pre-wrap' }, props.text);
    },
  });
  return { component, preload };
}

const markdown = lazyMarkdown(() => import('./StreamingMarkdown.vue').then((module) => module.default));

/** StreamingMarkdown once loaded; until then its `text` as plain, wrapped text. */
export const AsyncStreamingMarkdown = markdown.component;
/** Loads the markdown renderer now (the app calls this when idle after start-up). */
export const preloadMarkdown = markdown.preload;
