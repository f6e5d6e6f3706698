import { createRequire as __evalsCreateRequire } from 'node:module'; const require = __evalsCreateRequire(import.meta.url);
import{caseResultSchema,traceStepSchema,transcriptSchema,usageSchema,verdictSchema}from"./chunk-EPFORAG5.js";import"./chunk-QLTBBLM4.js";import"./chunk-3GOVG4DN.js";export{caseResultSchema,traceStepSchema,transcriptSchema,usageSchema,verdictSchema};
