/**
 * Big-endian float32 and float64 bytes through one 8-byte scratch buffer, so the reader and
 * the writer need no `DataView` per message (making one costs more than decoding a small
 * message). The platform's byte order is detected once.
 */

/** Reads and writes big-endian floats through a shared scratch buffer. */
class Floats {
  private readonly bytes = new Uint8Array(8);
  private readonly f32 = new Float32Array(this.bytes.buffer, 0, 1);
  private readonly f64 = new Float64Array(this.bytes.buffer);
  /** Whether the platform is little-endian (every browser and Node in practice). */
  private readonly little = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

  /** The float32 at `at` in `buf`, widened exactly. */
  read32(buf: Uint8Array, at: number): number {
    const s = this.bytes;
    if (this.little) {
      s[0] = buf[at + 3]!;
      s[1] = buf[at + 2]!;
      s[2] = buf[at + 1]!;
      s[3] = buf[at]!;
    } else {
      for (let i = 0; i < 4; i++) s[i] = buf[at + i]!;
    }
    return this.f32[0]!;
  }

  /** The float64 at `at` in `buf`. */
  read64(buf: Uint8Array, at: number): number {
    const s = this.bytes;
    if (this.little) {
      for (let i = 0; i < 8; i++) s[i] = buf[at + 7 - i]!;
    } else {
      for (let i = 0; i < 8; i++) s[i] = buf[at + i]!;
    }
    return this.f64[0]!;
  }

  /** Writes `v` narrowed to float32 (round to nearest) at `at` in `buf`. */
  write32(buf: Uint8Array, at: number, v: number): void {
    this.f32[0] = v;
    const s = this.bytes;
    if (this.little) {
      buf[at] = s[3]!;
      buf[at + 1] = s[2]!;
      buf[at + 2] = s[1]!;
      buf[at + 3] = s[0]!;
    } else {
      for (let i = 0; i < 4; i++) buf[at + i] = s[i]!;
    }
  }

  /** Writes `v` as float64 at `at` in `buf`. */
  write64(buf: Uint8Array, at: number, v: number): void {
    this.f64[0] = v;
    const s = this.bytes;
    if (this.little) {
      for (let i = 0; i < 8; i++) buf[at + i] = s[7 - i]!;
    } else {
      for (let i = 0; i < 8; i++) buf[at + i] = s[i]!;
    }
  }
}

/** The shared scratch (decoding and encoding are synchronous: one is enough). */
export const floats: Floats = /*@__PURE__*/ new Floats();
