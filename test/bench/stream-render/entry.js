// Harness entry (plain JS so the node type-check project does not pull DOM types in): mounts the bench app.
import { createApp } from 'vue';
import BenchApp from './BenchApp.vue';
import { installVirtualFrames } from './virtual-frames';

installVirtualFrames();

createApp(BenchApp).mount('#app');
