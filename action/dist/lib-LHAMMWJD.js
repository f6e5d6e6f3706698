import { createRequire as __evalsCreateRequire } from 'node:module'; const require = __evalsCreateRequire(import.meta.url);
import{require_lib}from"./chunk-5IQGZPA7.js";import"./chunk-3GOVG4DN.js";export default require_lib();
