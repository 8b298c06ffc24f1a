/**
 * The codec constant of a message (docs/frontend.md): `name`, `id`,
 * `fromWire`, `decode`, `validate`, `toWire`, `encode` and the Standard Schema face. Built by
 * `codec()` from the message's generated straight-line functions. Part of the package's
 * runtime (hand-written, embedded by the emitter from codegen/ts-runtime).
 */

import { TupletError, type Issue, type Result, type Seg } from "./errors.js";
import { endRead, newReader, resetReader, type Reader } from "./reader.js";
import { Writer } from "./writer.js";
import { ValueWriter } from "./wire_value.js";
import { errorAt, packWire, type PathIssue } from "./values.js";
import { vRecord, type TFields } from "./table.js";

/** The Standard Schema interface (standardschema.dev, v1), declared here: no dependency. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The Standard Schema properties. */
  readonly "~standard": StandardSchemaV1.Props<Input, Output>;
}

/** Types of the Standard Schema interface. */
export declare namespace StandardSchemaV1 {
  /** The Standard Schema properties. */
  export interface Props<Input = unknown, Output = Input> {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => Result<Output> | Promise<Result<Output>>;
    readonly types?: Types<Input, Output> | undefined;
  }
  /** The result of `validate`. */
  export type Result<Output> = SuccessResult<Output> | FailureResult;
  /** A valid value. */
  export interface SuccessResult<Output> {
    readonly value: Output;
    readonly issues?: undefined;
  }
  /** An invalid value's issues. */
  export interface FailureResult {
    readonly issues: ReadonlyArray<Issue>;
  }
  /** One issue. */
  export interface Issue {
    readonly message: string;
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  /** One step of an issue's path. */
  export interface PathSegment {
    readonly key: PropertyKey;
  }
  /** The input and output types. */
  export interface Types<Input = unknown, Output = Input> {
    readonly input: Input;
    readonly output: Output;
  }
  /** The input type of a schema. */
  export type InferInput<Schema extends StandardSchemaV1> = NonNullable<Schema["~standard"]["types"]>["input"];
  /** The output type of a schema. */
  export type InferOutput<Schema extends StandardSchemaV1> = NonNullable<Schema["~standard"]["types"]>["output"];
}

/** Options of `encode` and `toWire`: the compact shape (default) or the named (legacy) one. */
export interface EncodeOptions {
  readonly shape?: "compact" | "named" | undefined;
}

/** The generated functions of one type. */
export interface TypeFns<T> {
  /** Reads one value of either shape (throws TupletError). */
  readonly read: (r: Reader) => T;
  /** Writes one checked value (throws TupletError). */
  readonly write: (w: Writer, v: T, named: boolean) => void;
  /** Records every issue of the value at `path`. */
  readonly validate: (v: T, path: Seg[], issues: Issue[]) => void;
}

/** A message's codec: the package's public API for one message. */
export interface MessageCodec<T, N extends string = string, I extends number = number>
  extends StandardSchemaV1<T, T> {
  /** The wire name (`player:move`). */
  readonly name: N;
  /** The envelope id. */
  readonly id: I;
  /** Reads an already-decoded JS value of either shape (ints `number | bigint`, nil `null | undefined`). */
  fromWire(v: unknown): Result<T>;
  /** Decodes one whole message of either shape; trailing bytes are an error. */
  decode(bytes: Uint8Array): Result<T>;
  /** Checks a natural value: every issue, each with its path. */
  validate(value: T): Result<T>;
  /** The compact tuple (or, with `{ shape: "named" }`, the named map) as JS data, every map field a `Map` in wire order (UTF-8 key order); throws TupletError. */
  toWire(value: T, opts?: EncodeOptions): unknown;
  /** The bytes of the compact (or named) shape; throws TupletError on an invalid value. */
  encode(value: T, opts?: EncodeOptions): Uint8Array<ArrayBuffer>;
  /** Appends the payload to a writer (for envelopes); throws TupletError. */
  writeTo(w: Writer, value: T, opts?: EncodeOptions): void;
  /**
   * The delta form of a message declared `delta` (its `X$delta`), undefined for any other: a
   * dispatcher applies such a message's payloads to a `Mirror`, `send` takes its `Tracker`.
   */
  readonly delta?: DeltaFace<T> | undefined;
  /**
   * Whether the message may travel unreliably (`#[tuplet(unreliable)]`): a transport with
   * datagrams sends it as one when it fits; everything else goes on the reliable stream.
   */
  readonly unreliable: boolean;
}

/** What a codec uses of its message's `X$delta` (a `DeltaCodec<T>`), covariant in `T`. */
export interface DeltaFace<T> {
  /** A new, empty mirror. */
  mirror(): { decode(payload: unknown): Result<T> };
  /** The `delta_payload` error when `bytes` is a tracker's payload of the message. */
  probe(bytes: Uint8Array): TupletError | undefined;
}

/** The issue list of a thrown value (a TupletError's one issue; anything else is rethrown). */
function issuesOf(e: unknown): Issue[] {
  if (e instanceof TupletError) return [e.issue()];
  throw e;
}

/** The TupletError to throw for an invalid value: its first validation issue, with the path. */
function invalid<T>(e: unknown, value: T, validate: TypeFns<T>["validate"]): never {
  if (e instanceof TupletError) {
    const issues: Issue[] = [];
    validate(value, [], issues);
    const issue = issues[0] as PathIssue | undefined;
    if (issue !== undefined) throw errorAt(issue.code, issue.message, issue.segments ?? []);
  }
  throw e;
}

/** The reader every `decode` reuses (decoding runs no user code, so it is never re-entered). */
let reader: Reader | undefined;

/** The writer every `encode` reuses while it is not busy (a getter may encode re-entrantly). */
let shared: Writer | undefined;
let busy = false;

/** The reader `fromWire` reuses: int map keys may be decimal text (a plain object's keys). */
let wireReader: Reader | undefined;

/**
 * Reads an already-decoded JS value: packs it into msgpack (property getters run here, so a
 * re-entrant call gets its own writer), then reads those bytes with the type's decoder.
 */
function readWire<T>(read: TypeFns<T>["read"], v: unknown): T {
  const mine = !busy;
  const w = mine ? (shared ??= new Writer(256)) : new Writer();
  if (mine) {
    w.reset();
    busy = true;
  }
  try {
    packWire(w, v);
  } finally {
    if (mine) busy = false;
  }
  const bytes = w.finish();
  const r = wireReader === undefined ? (wireReader = newReader(bytes)) : resetReader(wireReader, bytes);
  r.textKeys = true;
  const value = read(r);
  endRead(r);
  return value;
}

/**
 * Builds a message's codec from its generated functions (`X$read`, `X$write`) and its table
 * (`X$t`, which `validate` walks), and for a `delta` message its `X$delta`; the name and id
 * are inferred as literal types. `decode` of a delta message handed a tracker's payload fails
 * with `delta_payload` instead of its own error.
 */
export function codec<T, N extends string, I extends number>(
  name: N,
  id: I,
  read: TypeFns<T>["read"],
  write: TypeFns<T>["write"],
  fields: TFields,
  delta?: DeltaFace<T>,
  unreliable = false,
): MessageCodec<T, N, I> {
  const validate = (v: T, p: Seg[], i: Issue[]): void => vRecord(v, fields, p, i);
  const writeTo = (w: Writer, value: T, opts?: EncodeOptions): void => {
    try {
      write(w, value, opts?.shape === "named");
    } catch (e) {
      invalid(e, value, validate);
    }
  };
  return {
    name,
    id,
    delta,
    unreliable,
    fromWire(v: unknown): Result<T> {
      try {
        return { ok: true, value: readWire(read, v) };
      } catch (e) {
        return { ok: false, issues: issuesOf(e) };
      }
    },
    decode(bytes: Uint8Array): Result<T> {
      const r = reader === undefined ? (reader = newReader(bytes)) : resetReader(reader, bytes);
      try {
        const value = read(r);
        endRead(r);
        return { ok: true, value };
      } catch (e) {
        return { ok: false, issues: issuesOf(delta?.probe(bytes) ?? e) };
      }
    },
    validate(value: T): Result<T> {
      const issues: Issue[] = [];
      validate(value, [], issues);
      return issues.length === 0 ? { ok: true, value } : { ok: false, issues };
    },
    toWire(value: T, opts?: EncodeOptions): unknown {
      const w = new ValueWriter();
      writeTo(w, value, opts);
      return w.value();
    },
    encode(value: T, opts?: EncodeOptions): Uint8Array<ArrayBuffer> {
      const mine = !busy;
      const w = mine ? (shared ??= new Writer(256)) : new Writer();
      if (mine) {
        w.reset();
        busy = true;
      }
      try {
        write(w, value, opts?.shape === "named");
      } catch (e) {
        invalid(e, value, validate);
      } finally {
        if (mine) busy = false;
      }
      return w.finish();
    },
    writeTo,
    "~standard": {
      version: 1,
      vendor: "tuplet",
      validate(v: unknown): StandardSchemaV1.Result<T> {
        try {
          return { value: readWire(read, v) };
        } catch (e) {
          if (!(e instanceof TupletError)) throw e;
          return { issues: [{ message: e.message, path: e.segments.map((s) => (typeof s === "object" ? { key: s.key } : s)) }] };
        }
      },
    },
  };
}
