import { createRequire as __evalsCreateRequire } from 'node:module'; const require = __evalsCreateRequire(import.meta.url);
import{functionTarget,wrapFunction}from"./chunk-AMAWDSAI.js";import"./chunk-DEGHVBRY.js";import"./chunk-HDDKUWEN.js";import"./chunk-TJEKQFZW.js";import"./chunk-Z2JZU4SJ.js";import"./chunk-TOYF4UXS.js";import"./chunk-3GOVG4DN.js";export{functionTarget,wrapFunction};
