/**
 * CRC-32 (the gzip / zlib polynomial) of a concatenation from the CRCs of its
 * pieces, without reading the pieces again: zlib's crc32_combine (the
 * multiply-modulo-p form of zlib 1.2.12+), which Node does not expose.
 *
 * Guarantees: `crc32Combine(crc32(a), crc32(b), b.length) === crc32(a ‖ b)`
 * for any a, b (lengths below 2^53); `shiftOperator(len)` is what a combine
 * with a piece of `len` bytes multiplies by, so a length used again and again
 * is reduced once (`crc32Append`). Pure; no allocation.
 */

/** The reflected CRC-32 polynomial. */
const POLY = 0xedb88320;

/** a·b modulo p(x), both reflected (bit 31 is x^0). */
function multiplyModP(a: number, b: number): number {
  let m = 0x80000000;
  let product = 0;
  for (;;) {
    if ((a & m) !== 0) {
      product ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = (b & 1) !== 0 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return product >>> 0;
}

/** x^(2^k) modulo p(x), k = 0 … 31. */
const X_POW_2K: readonly number[] = (() => {
  const table: number[] = [];
  let p = 0x40000000; // x^1
  for (let k = 0; k < 32; k++) {
    table.push(p);
    p = multiplyModP(p, p);
  }
  return table;
})();

/** x^(8·len) modulo p(x): appending `len` bytes multiplies the running CRC by it. */
export function shiftOperator(len: number): number {
  let p = 0x80000000; // x^0
  let k = 3; // 8·len = len·2^3
  for (let n = len; n > 0; n = Math.floor(n / 2), k++) if (n % 2 === 1) p = multiplyModP(X_POW_2K[k % 32]!, p);
  return p;
}

/** The CRC of a ‖ b, given crc(a), crc(b) and b's operator (`shiftOperator(b.length)`). */
export function crc32Append(crcA: number, crcB: number, operatorB: number): number {
  return (multiplyModP(operatorB, crcA) ^ crcB) >>> 0;
}

/** The CRC of a ‖ b, given crc(a), crc(b) and b's length. */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  return crc32Append(crcA, crcB, shiftOperator(lengthB));
}
