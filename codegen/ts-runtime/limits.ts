/**
 * Caps that bound a decode in time and memory whatever the input; the same defaults as the
 * Rust runtime's `Limits` (WIRE.md, "Bounds and caps").
 */
export interface Limits {
  /** Deepest nesting of arrays and maps accepted (also inside skipped values). */
  readonly maxDepth: number;
  /** Most array elements plus map keys and values one decode may visit, skipped ones included. */
  readonly maxElements: number;
}

/** Depth 64, 2^20 elements: Rust's `Limits::default()`. */
export const DEFAULT_LIMITS: Limits = /*@__PURE__*/ Object.freeze({
  maxDepth: 64,
  maxElements: 1048576,
});

/**
 * The largest variant tag on the wire (a u32): Rust's `plan::TAG_MAX`, which the Rust
 * emitter writes into generated code; a codegen unit test checks this copy against it.
 */
export const TAG_MAX = 4294967295;
