import { createRequire as __evalsCreateRequire } from 'node:module'; const require = __evalsCreateRequire(import.meta.url);
import{MARKDOWN_MAX_BYTES,markdownRenderer,renderMarkdown}from"./chunk-4FRPQKYF.js";import"./chunk-GBAM6BQJ.js";import"./chunk-WVAFILPP.js";import"./chunk-TUGWDUFX.js";import"./chunk-3GOVG4DN.js";export{MARKDOWN_MAX_BYTES,markdownRenderer,renderMarkdown};
