/**
 * How a password leaves the browser when the server expects a digest (login, change password
 * for agents): the SHA-256 of its UTF-8 bytes, as lower-case hex. The server stores an argon2id
 * hash of this digest, so the typed password itself never reaches it on those calls.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

export function passwordDigest(password: string): string {
  return bytesToHex(sha256(utf8ToBytes(password)));
}
