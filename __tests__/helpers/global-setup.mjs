export { setup as default } from './shared-cache.mjs';
