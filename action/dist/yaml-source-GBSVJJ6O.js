import { createRequire as __evalsCreateRequire } from 'node:module'; const require = __evalsCreateRequire(import.meta.url);
import{parseYamlSource,quickSource}from"./chunk-NXFUQ77H.js";import"./chunk-AY2A7MZI.js";import"./chunk-C7VENNVE.js";export{parseYamlSource,quickSource};
