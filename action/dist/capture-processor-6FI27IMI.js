import { createRequire as __evalsCreateRequire } from 'node:module'; const require = __evalsCreateRequire(import.meta.url);
import{routeTrace,sinkOf,traceCaptureProcessor}from"./chunk-JJHJSPDX.js";import"./chunk-C7VENNVE.js";export{routeTrace,sinkOf,traceCaptureProcessor};
