import { createRequire as __evalsCreateRequire } from 'node:module'; const require = __evalsCreateRequire(import.meta.url);
import{parseYamlSource,quickSource}from"./chunk-V6SLGJW3.js";import"./chunk-ZAF3YCMC.js";import"./chunk-3GOVG4DN.js";export{parseYamlSource,quickSource};
