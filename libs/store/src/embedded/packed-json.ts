/**
 * A JSON value kept as compact text, the embedded engine's form of an opaque
 * member (CollectionSpec.opaqueMembers): its JSON text with every run of
 * lowercase hex digits, about half of a ledger transaction (signature, ids),
 * held as one Latin-1 character per byte, behind a marker JSON text never
 * holds: JSON.stringify escapes every control character inside strings and
 * writes none outside them. Never stored outside the process.
 */
const MARKER = '\u0001';
const MARKER_BYTE = MARKER.charCodeAt(0);
const MIN_RUN_DIGITS = 32;
const HEX_RUN = new RegExp(`[0-9a-f]{${MIN_RUN_DIGITS},}`, 'g');
/** Bytes one marker announces at most: the count is itself one character. */
const MAX_RUN_BYTES = 255;

/** The value of each lowercase hex digit by its character code, -1 for any other byte. */
const DIGIT = new Int8Array(256).fill(-1);
for (let value = 0; value < 16; value++) DIGIT['0123456789abcdef'.charCodeAt(value)] = value;

// Reused by every call (a replay packs one text per transaction), so packing allocates only the text it returns;
// a packed text is never longer than its JSON text, so buffers of that length hold either.
let source = Buffer.allocUnsafe(4096);
let packed = Buffer.allocUnsafe(4096);

export function packedJson(value: unknown): string {
  const json = JSON.stringify(value);
  if (source.length < json.length) {
    source = Buffer.allocUnsafe(2 * json.length);
    packed = Buffer.allocUnsafe(2 * json.length);
  }
  // Ledger transactions are nearly always ASCII, one byte per character, which a buffer packs whole;
  // other text may hold characters no byte can, so only its runs go through the buffers.
  if (Buffer.byteLength(json) === json.length) return packedAscii(json);
  const text = json.replace(HEX_RUN, packedRunText);
  // V8 builds long texts from pieces it keeps as a tree; reading a character joins them into one string.
  text.charCodeAt(0);
  return text;
}

export function unpackedJson(text: string): unknown {
  return JSON.parse(unpackedHex(text));
}

function packedAscii(json: string): string {
  const length = source.write(json, 0, 'latin1');
  let size = 0;
  let copied = 0;
  // A run long enough to pack holds one of any MIN_RUN_DIGITS bytes in a row, so past the last run or byte
  // found to be no digit, only every MIN_RUN_DIGITS-th byte needs a look.
  for (let probe = MIN_RUN_DIGITS - 1; probe < length; probe += MIN_RUN_DIGITS) {
    if (DIGIT[source[probe]] < 0) continue;
    let start = probe;
    while (start > 0 && DIGIT[source[start - 1]] >= 0) start--;
    let end = probe + 1;
    while (end < length && DIGIT[source[end]] >= 0) end++;
    if (end - start >= MIN_RUN_DIGITS) {
      size += source.copy(packed, size, copied, start);
      size = packRun(start, end, size);
      copied = end;
    }
    probe = end;
  }
  if (copied === 0) return json;
  size += source.copy(packed, size, copied, length);
  return packed.toString('latin1', 0, size);
}

function packedRunText(run: string): string {
  source.write(run, 0, 'latin1');
  return packed.toString('latin1', 0, packRun(0, run.length, 0));
}

/** Writes the digits of `source` from `from` to `to` into `packed` at `size`, as marked bytes; gives the size after them. */
function packRun(from: number, to: number, size: number): number {
  let at = from;
  while (to - at >= 2) {
    const bytes = Math.min(MAX_RUN_BYTES, (to - at) >> 1);
    packed[size++] = MARKER_BYTE;
    packed[size++] = bytes;
    for (const stop = at + 2 * bytes; at < stop; at += 2) packed[size++] = (DIGIT[source[at]] << 4) | DIGIT[source[at + 1]];
  }
  // An odd digit out stays as it is.
  if (at < to) packed[size++] = source[at];
  return size;
}

function unpackedHex(text: string): string {
  let unpacked = '';
  let from = 0;
  for (let marker = text.indexOf(MARKER); marker >= 0; marker = text.indexOf(MARKER, from)) {
    const bytes = text.charCodeAt(marker + 1);
    const written = packed.write(text.slice(marker + 2, marker + 2 + bytes), 0, 'latin1');
    unpacked += text.slice(from, marker) + packed.toString('hex', 0, written);
    from = marker + 2 + bytes;
  }
  return unpacked + text.slice(from);
}
