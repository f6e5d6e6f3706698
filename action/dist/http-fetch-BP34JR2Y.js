import { createRequire as __evalsCreateRequire } from 'node:module'; const require = __evalsCreateRequire(import.meta.url);
import{createHttpFetch,httpFetch}from"./chunk-DPXVZ43W.js";import"./chunk-C7VENNVE.js";export{createHttpFetch,httpFetch};
