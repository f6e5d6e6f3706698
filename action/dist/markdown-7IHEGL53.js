import { createRequire as __evalsCreateRequire } from 'node:module'; const require = __evalsCreateRequire(import.meta.url);
import{MARKDOWN_MAX_BYTES,markdownRenderer,renderMarkdown}from"./chunk-JLIQSOQF.js";import"./chunk-E567QRIC.js";import"./chunk-3GOVG4DN.js";export{MARKDOWN_MAX_BYTES,markdownRenderer,renderMarkdown};
