import { createRequire as __evalsCreateRequire } from 'node:module'; const require = __evalsCreateRequire(import.meta.url);
var compiled=new Map;function globToRegExp(glob){let regex=compiled.get(glob);if(!regex){let body=glob.replace(/[.+^${}()|[\]\\]/g,"\\$&").replace(/\*/g,".*").replace(/\?/g,".");regex=new RegExp(`^${body}$`,"s"),compiled.set(glob,regex)}return regex}export{globToRegExp};
