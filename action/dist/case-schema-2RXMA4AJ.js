import { createRequire as __evalsCreateRequire } from 'node:module'; const require = __evalsCreateRequire(import.meta.url);
import{caseResultSchema,traceStepSchema,transcriptSchema,usageSchema,verdictSchema}from"./chunk-6GIHVNBT.js";import"./chunk-ZOT5IQ6W.js";import"./chunk-C7VENNVE.js";export{caseResultSchema,traceStepSchema,transcriptSchema,usageSchema,verdictSchema};
