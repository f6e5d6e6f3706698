import { createRequire as __evalsCreateRequire } from 'node:module'; const require = __evalsCreateRequire(import.meta.url);
import{Cassette,ReplayMissError}from"./chunk-2PNWKBNH.js";import"./chunk-6DYS4F4M.js";import"./chunk-ZOT5IQ6W.js";import"./chunk-7VTHMDZS.js";import"./chunk-C7VENNVE.js";export{Cassette,ReplayMissError};
