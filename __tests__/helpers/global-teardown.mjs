export { teardown as default } from './shared-cache.mjs';
