import { afterAll } from "bun:test";
import { disposeAll } from "./tmp.ts";

/** After the whole run (bunfig.toml [test] preload): nothing a test made outside the repository is left. */
afterAll(disposeAll);
