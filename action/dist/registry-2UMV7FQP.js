import { createRequire as __evalsCreateRequire } from 'node:module'; const require = __evalsCreateRequire(import.meta.url);
import{registerProvider,resolveModel}from"./chunk-K5KU5NOP.js";import"./chunk-Z2JZU4SJ.js";import"./chunk-H2N6DIOK.js";import"./chunk-3GOVG4DN.js";export{registerProvider,resolveModel};
