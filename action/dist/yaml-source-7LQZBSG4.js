import { createRequire as __evalsCreateRequire } from 'node:module'; const require = __evalsCreateRequire(import.meta.url);
import{parseYamlSource,quickSource}from"./chunk-5WVU33CZ.js";import"./chunk-AY2A7MZI.js";import"./chunk-C7VENNVE.js";export{parseYamlSource,quickSource};
