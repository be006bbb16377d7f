/**
 * The hash of an identity text, shared by the text index (TextIndex) and the texts' store
 * (IdentityTexts, which hashes a text's bytes to the same value without making its string).
 */
/** 32-bit FNV-1a over the UTF-16 code units, as a signed 32-bit integer (what an Int32Array holds). */
export function hashText(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193)
  return h | 0
}
