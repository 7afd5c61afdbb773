/** Where a JSON syntax error is (src/session/json-locate.ts). */
export { locateJsonError, type JsonSyntaxError } from "../session/json-locate.ts";
