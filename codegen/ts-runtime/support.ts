/** Everything generated modules import: the runtime, value helpers, codecs and dispatch. */

export * from "./index.js";
export * from "./values.js";
export * from "./table.js";
export * from "./named.js";
export * from "./wire_value.js";
export * from "./codec.js";
export * from "./dispatcher.js";
export * from "./server_dispatcher.js";
export * from "./transport.js";
