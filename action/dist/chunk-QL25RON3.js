import { createRequire as __evalsCreateRequire } from 'node:module'; const require = __evalsCreateRequire(import.meta.url);
import{readFileSync}from"node:fs";var REPORT_SCHEMA_VERSION=4,cached;function packageVersion(){return cached??=JSON.parse(readFileSync(new URL("../../package.json",import.meta.url),"utf8")).version,cached}export{REPORT_SCHEMA_VERSION,packageVersion};
