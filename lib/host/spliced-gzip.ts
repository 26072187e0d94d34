/**
 * A page with a per-response value (the CSP nonce) spliced in, answered
 * plain or gzipped without compressing the page again per response.
 *
 * Once per page: the body is cut at every occurrence of the rendering's value
 * into parts; each part is compressed ONCE as raw deflate ending in a sync
 * flush (the last one finished), with its CRC-32 and length. Per response, a
 * gzip member is assembled: the 10-byte header, the compressed parts with the
 * new value between them as stored (uncompressed) deflate blocks, then the
 * CRC-32 of the whole body (combined from the parts' CRCs: ../http/crc32-combine)
 * and its length. Raw deflate segments that each end on a byte boundary (a
 * sync flush ends with an empty stored block) concatenate into one valid
 * stream. A value is a few dozen bytes: a stored block costs 5 bytes more
 * than the value and no zlib stream (creating one per response costs more
 * than the whole splice).
 *
 * Back references across the cuts (a page compresses as well as in one
 * piece): each part is compressed with, as its preset dictionary, the 32 KB
 * before it — with every value replaced by as many 0xFF bytes, a byte UTF-8
 * never contains. A match can therefore never cover a value's position, and
 * every other byte of the dictionary is the byte the decoder has at that
 * distance, provided the response's value has the rendering value's length
 * in bytes (a CSP nonce always has: 16 random bytes in base64); a value of
 * another length is answered by gzipping the whole body instead.
 *
 * Guarantees: `gunzip(gzipWith(page, v))` and `plainWith(page, v)` are both
 * exactly the body with every occurrence of the rendering's value replaced by
 * `v`, byte for byte; the rendering's value appears in neither (unless `v`
 * contains it). Per response the work is proportional to the number of
 * occurrences and the compressed size, never to a recompression.
 * Not guaranteed: the exact size of a single gzip of the whole body (each
 * part is its own deflate stream: a few bytes of flush per cut).
 */
import { constants, crc32, deflateRawSync, gzipSync } from 'node:zlib';
import { crc32Append, shiftOperator } from '../http/crc32-combine';

export interface SplicedPage {
  /** The body between occurrences of the value, as bytes. */
  readonly parts: readonly Buffer[];
  /** Each part as raw deflate ending in a sync flush (the last: finished). */
  readonly deflated: readonly Buffer[];
  readonly crcs: readonly number[];
  /** `shiftOperator(part.length)` per part. */
  readonly operators: readonly number[];
  /** The body's length without the value's occurrences. */
  readonly partsLength: number;
  /** The rendering value's length in bytes: the only one the compressed parts fit. */
  readonly valueLength: number;
}

/** Deflate's window: how far back a match reaches. */
const WINDOW = 32 * 1024;
/** The longest value a single stored block can carry. */
const MAX_VALUE_BYTES = 0xffff;
/** ID1 ID2, CM = deflate, no flags, MTIME 0, XFL 0, OS unknown (RFC 1952). */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]);

/** Cuts `body` at every occurrence of `value` and compresses each part once. */
export function splicePage(body: string, value: string): SplicedPage {
  if (value.length === 0) throw new Error('splicePage: the value to splice at must not be empty');
  const parts = body.split(value).map((part) => Buffer.from(part, 'utf8'));
  const valueLength = Buffer.byteLength(value, 'utf8');
  const placeholder = Buffer.alloc(valueLength, 0xff);
  // The body as the compressor sees it: each value an unmatchable run of 0xFF.
  const seen = Buffer.concat(parts.flatMap((part, i) => (i === 0 ? [part] : [placeholder, part])));
  const last = parts.length - 1;
  let offset = 0;
  const deflated = parts.map((part, i) => {
    if (i > 0) offset += valueLength;
    const options = { finishFlush: i === last ? constants.Z_FINISH : constants.Z_SYNC_FLUSH };
    const compressed = deflateRawSync(part, offset === 0 ? options : { ...options, dictionary: seen.subarray(Math.max(0, offset - WINDOW), offset) });
    offset += part.length;
    return compressed;
  });
  return {
    parts,
    deflated,
    crcs: parts.map((part) => crc32(part)),
    operators: parts.map((part) => shiftOperator(part.length)),
    partsLength: parts.reduce((sum, part) => sum + part.length, 0),
    valueLength,
  };
}

/** The body with `value` at every cut. */
export function plainWith(page: SplicedPage, value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  const pieces: Buffer[] = [];
  page.parts.forEach((part, i) => {
    if (i > 0) pieces.push(bytes);
    pieces.push(part);
  });
  return Buffer.concat(pieces, page.partsLength + bytes.length * (page.parts.length - 1));
}

/** A gzip member whose content is `plainWith(page, value)`. */
export function gzipWith(page: SplicedPage, value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length !== page.valueLength) return gzipSync(plainWith(page, value));
  if (bytes.length > MAX_VALUE_BYTES) throw new Error(`gzipWith: a spliced value is at most ${MAX_VALUE_BYTES} bytes`);
  const stored = Buffer.allocUnsafe(5 + bytes.length);
  stored[0] = 0x00; // BFINAL 0, BTYPE 00 (stored); the rest of the byte is padding
  stored.writeUInt16LE(bytes.length, 1);
  stored.writeUInt16LE(~bytes.length & 0xffff, 3);
  bytes.copy(stored, 5);
  const valueCrc = crc32(bytes);
  const valueOperator = shiftOperator(bytes.length);

  const pieces: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  page.deflated.forEach((segment, i) => {
    if (i > 0) {
      pieces.push(stored);
      crc = crc32Append(crc, valueCrc, valueOperator);
    }
    pieces.push(segment);
    crc = crc32Append(crc, page.crcs[i]!, page.operators[i]!);
  });
  const trailer = Buffer.allocUnsafe(8);
  trailer.writeUInt32LE(crc, 0);
  trailer.writeUInt32LE((page.partsLength + bytes.length * (page.parts.length - 1)) % 2 ** 32, 4);
  pieces.push(trailer);
  return Buffer.concat(pieces);
}
