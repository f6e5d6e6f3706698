import { createRequire as __evalsCreateRequire } from 'node:module'; const require = __evalsCreateRequire(import.meta.url);
import{MARKDOWN_MAX_BYTES,markdownRenderer,renderMarkdown}from"./chunk-YZTQ2D4O.js";import"./chunk-7JPX2YZZ.js";import"./chunk-3GOVG4DN.js";export{MARKDOWN_MAX_BYTES,markdownRenderer,renderMarkdown};
