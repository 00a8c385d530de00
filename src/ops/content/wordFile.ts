/**
 * A sensitive-word file as text: UTF-8 (a byte-order mark dropped), or GB18030 (GBK) when it is not
 * valid UTF-8, as Chinese word lists often are. Its size is checked before a byte is read: a file
 * that cannot fit the form's limit of `maxChars` characters (4 bytes a character at most) is
 * refused unread, and the decoded text is held to the same limit.
 */
export type WordFileRead =
  { ok: true; text: string; encoding: 'utf-8' | 'gb18030' } | { ok: false; reason: 'too-long' | 'unreadable' };

export function decodeWordFile(bytes: Uint8Array): { text: string; encoding: 'utf-8' | 'gb18030' } | undefined {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    // not UTF-8
  }
  try {
    return { text: new TextDecoder('gb18030', { fatal: true }).decode(bytes), encoding: 'gb18030' };
  } catch {
    return undefined;
  }
}

export async function readWordFile(file: Blob, maxChars: number): Promise<WordFileRead> {
  if (file.size > maxChars * 4) return { ok: false, reason: 'too-long' };
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
  const read = decodeWordFile(bytes);
  if (!read) return { ok: false, reason: 'unreadable' };
  // line ends as the textarea keeps them
  const text = read.text.replace(/\r\n?/g, '\n');
  if (text.length > maxChars) return { ok: false, reason: 'too-long' };
  return { ok: true, text, encoding: read.encoding };
}
