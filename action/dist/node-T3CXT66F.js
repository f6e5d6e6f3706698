import { createRequire as __evalsCreateRequire } from 'node:module'; const require = __evalsCreateRequire(import.meta.url);
import{child_process,crypto,fs,os,path,stream,util}from"./chunk-LCAIBBHF.js";import"./chunk-C7VENNVE.js";export{child_process,crypto,fs,os,path,stream,util};
