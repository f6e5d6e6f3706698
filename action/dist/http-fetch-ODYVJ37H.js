import { createRequire as __evalsCreateRequire } from 'node:module'; const require = __evalsCreateRequire(import.meta.url);
import{createHttpFetch,httpFetch}from"./chunk-DPXVZ43W.js";import"./chunk-3GOVG4DN.js";export{createHttpFetch,httpFetch};
