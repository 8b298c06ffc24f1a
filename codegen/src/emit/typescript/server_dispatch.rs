//! The index's export line of the server dispatcher over any socket
//! (`codegen/ts-runtime/server_dispatcher.ts`: `createServerDispatcher` and its types).

/// Appended to `src/index.ts` after the runtime's other public names.
pub const EXPORTS: &str = "export { createServerDispatcher } from \"./runtime/support.js\";\n\
export type { SocketDispatcher, SocketDispatcherOptions } from \"./runtime/support.js\";\n";
