// The smooth-scrolling page with AX refs (see smooth-scroll.mjs).
import { smoothScrollTest } from './smooth-scroll.mjs';

smoothScrollTest('chromium_ax');
