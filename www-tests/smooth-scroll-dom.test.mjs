// The smooth-scrolling page with DOM-walk refs (see smooth-scroll.mjs).
import { smoothScrollTest } from './smooth-scroll.mjs';

smoothScrollTest('dom');
