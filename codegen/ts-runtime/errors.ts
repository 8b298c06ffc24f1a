/**
 * Issues with a stable code and a canonical path, identical to the Rust runtime's
 * `Code::as_str`, `Path` Display and message templates.
 */

import { rustDebugStr } from "./format.js";

const codes = {
  Truncated: "truncated",
  ReservedMarker: "reserved_marker",
  WrongType: "wrong_type",
  TrailingBytes: "trailing_bytes",
  InvalidUtf8: "invalid_utf8",
  NotFinite: "not_finite",
  NotIntegral: "not_integral",
  OutOfRange: "out_of_range",
  TooLong: "too_long",
  TooShort: "too_short",
  WrongLength: "wrong_length",
  MissingField: "missing_field",
  DuplicateKey: "duplicate_key",
  UnknownVariant: "unknown_variant",
  UnknownFlags: "unknown_flags",
  TooDeep: "too_deep",
  TooManyElements: "too_many_elements",
  UnknownMessage: "unknown_message",
  NoBaseline: "no_baseline",
  DeltaPayload: "delta_payload",
} as const;

/** Every stable code, spelled as Rust's `Code::as_str`. */
export const Code: Readonly<typeof codes> = /*@__PURE__*/ Object.freeze(codes);

/** A stable code: `"truncated"`, `"wrong_type"`, ... */
export type Code = (typeof Code)[keyof typeof Code];

/** A key of a map in a path (printed `["ann"]`, Rust-Debug-quoted). */
export interface KeySeg {
  readonly key: string;
}

/** One step of a path: a canonical field name, an index, or a map key. */
export type Seg = string | number | KeySeg;

/** One problem: a stable code, where (canonical names, `p[1]`, `items[3].name`), and a message. */
export interface Issue {
  readonly code: Code;
  readonly path: string;
  readonly message: string;
}

/** The outcome of a decode or a validation. */
export type Result<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly Issue[] };

/** A path as Rust's `Path` Display prints it: `p[1]`, `items[3].name`, `scores["ann"]`; the root is `""`. */
export function formatPath(segs: readonly Seg[]): string {
  let out = "";
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i];
    if (typeof seg === "string") out += i === 0 ? seg : "." + seg;
    else if (typeof seg === "number") out += "[" + String(seg) + "]";
    else if (seg !== undefined) out += "[" + rustDebugStr(seg.key) + "]";
  }
  return out;
}

/**
 * The error thrown by the reader, the writer's checks and encoders: one issue. Its path is
 * built as the error unwinds (`inField`, `inIndex`, `inKey` prefix it, like Rust's
 * `Error::in_field`). `message` is Rust's Issue Display (`code at path: text`); the
 * template text alone is `detail`.
 */
export class TupletError extends Error {
  readonly code: Code;
  readonly detail: string;
  /** Segments innermost first (prefixing pushes). */
  private readonly rev: Seg[] = [];

  constructor(code: Code, detail: string) {
    super(code + ": " + detail);
    this.name = "TupletError";
    this.code = code;
    this.detail = detail;
  }

  /** The path segments, outermost first. */
  get segments(): Seg[] {
    return this.rev.slice().reverse();
  }

  /** The path as text. */
  get path(): string {
    return formatPath(this.segments);
  }

  /** Prefixes the path with a field (canonical name), as the error leaves a record. */
  inField(name: string): this {
    return this.push(name);
  }

  /** Prefixes the path with an index, as the error leaves a list. */
  inIndex(index: number): this {
    return this.push(index);
  }

  /** Prefixes the path with a map key (an int key as its decimal text), as the error leaves a map. */
  inKey(key: string | number | bigint): this {
    return this.push({ key: String(key) });
  }

  /** The issue, path formatted. */
  issue(): Issue {
    return { code: this.code, path: this.path, message: this.detail };
  }

  private push(seg: Seg): this {
    this.rev.push(seg);
    const path = this.path;
    this.message = path === "" ? this.code + ": " + this.detail : this.code + " at " + path + ": " + this.detail;
    return this;
  }
}

/** Builds an issue at `path` (segments outermost first). */
export function issueAt(code: Code, path: readonly Seg[], message: string): Issue {
  return { code, path: formatPath(path), message };
}

/** The issue of a thrown value: a TupletError's own; anything else is rethrown (a bug, not an input problem). */
export function toIssue(e: unknown): Issue {
  if (e instanceof TupletError) return e.issue();
  throw e;
}

/** Runs a decode step, turning a thrown TupletError into `{ ok: false, issues }`. */
export function attempt<T>(f: () => T): Result<T> {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    return { ok: false, issues: [toIssue(e)] };
  }
}
