import { createRequire as __evalsCreateRequire } from 'node:module'; const require = __evalsCreateRequire(import.meta.url);
function reasoningOf(trace){return(trace??[]).flatMap(step=>step.type==="llm_call"&&step.reasoning?[{iteration:step.iteration,text:step.reasoning}]:[])}export{reasoningOf};
