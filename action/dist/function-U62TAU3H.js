import { createRequire as __evalsCreateRequire } from 'node:module'; const require = __evalsCreateRequire(import.meta.url);
import{functionTarget,wrapFunction}from"./chunk-ZBLG36KZ.js";import"./chunk-DEGHVBRY.js";import"./chunk-6DQWPIJK.js";import"./chunk-TJEKQFZW.js";import"./chunk-Z2JZU4SJ.js";import"./chunk-H2N6DIOK.js";import"./chunk-3GOVG4DN.js";export{functionTarget,wrapFunction};
