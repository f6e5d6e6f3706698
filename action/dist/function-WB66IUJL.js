import { createRequire as __evalsCreateRequire } from 'node:module'; const require = __evalsCreateRequire(import.meta.url);
import{functionTarget,wrapFunction}from"./chunk-2LW4JCMI.js";import"./chunk-6CKUVSNI.js";import"./chunk-6DQWPIJK.js";import"./chunk-P6TJZQX3.js";import"./chunk-Z2JZU4SJ.js";import"./chunk-H2N6DIOK.js";import"./chunk-3GOVG4DN.js";export{functionTarget,wrapFunction};
