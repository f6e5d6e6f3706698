import { createRequire as __evalsCreateRequire } from 'node:module'; const require = __evalsCreateRequire(import.meta.url);
function suiteKey(suite,variant){return variant===void 0?suite:`${suite}\0${variant}`}export{suiteKey};
