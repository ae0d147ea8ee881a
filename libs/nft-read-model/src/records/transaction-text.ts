import type { Transaction } from '@ledger-api/ledger';

/**
 * A transaction kept as compact text. Its id and sender's public key are
 * left out (the record holds them; placeholders keep their place in the
 * member order), and every run of lowercase hex digits, about half of a
 * ledger transaction (signature, ids), is held as one Latin-1 character per
 * byte, behind a marker JSON text never holds: JSON.stringify escapes every
 * control character inside strings and writes none outside them.
 */
const MARKER = '\u0001';
const HEX_RUN = /[0-9a-f]{32,}/g;
/** Bytes one marker announces at most: the count is itself one character. */
const MAX_RUN_BYTES = 255;

export function transactionText(tx: Transaction): string {
  const text = JSON.stringify({ ...tx, id: 0, senderPublicKey: 0 }).replace(HEX_RUN, packedHex);
  // V8 builds long texts from pieces it keeps as a tree; reading a character joins them into one string.
  text.charCodeAt(0);
  return text;
}

export function transactionFromText(text: string, id: string, senderPublicKey: string): Transaction {
  return { ...(JSON.parse(unpackedHex(text)) as Transaction), id, senderPublicKey };
}

function packedHex(run: string): string {
  let packed = '';
  let at = 0;
  // An odd digit out stays as it is.
  while (run.length - at >= 2) {
    const bytes = Math.min(MAX_RUN_BYTES, (run.length - at) >> 1);
    packed += MARKER + String.fromCharCode(bytes) + Buffer.from(run.slice(at, at + 2 * bytes), 'hex').toString('latin1');
    at += 2 * bytes;
  }
  return packed + run.slice(at);
}

function unpackedHex(text: string): string {
  let unpacked = '';
  let from = 0;
  for (let marker = text.indexOf(MARKER); marker >= 0; marker = text.indexOf(MARKER, from)) {
    const bytes = text.charCodeAt(marker + 1);
    unpacked += text.slice(from, marker) + Buffer.from(text.slice(marker + 2, marker + 2 + bytes), 'latin1').toString('hex');
    from = marker + 2 + bytes;
  }
  return unpacked + text.slice(from);
}
