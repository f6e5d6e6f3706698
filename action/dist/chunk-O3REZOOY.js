import { createRequire as __evalsCreateRequire } from 'node:module'; const require = __evalsCreateRequire(import.meta.url);
function jsonOrText(text){try{return JSON.parse(text)}catch{return text}}export{jsonOrText};
