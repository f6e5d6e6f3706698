import { createRequire as __evalsCreateRequire } from 'node:module'; const require = __evalsCreateRequire(import.meta.url);
import{importPackageFrom,packageDir,packageVersion}from"./chunk-F37EVYAJ.js";import"./chunk-C7VENNVE.js";export{importPackageFrom,packageDir,packageVersion};
