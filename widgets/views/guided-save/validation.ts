// The server's rules for a memory's text and category, checked in the view before saving.

export const DEFAULT_MAX_CHARS = 100_000; // the server sends its own limit as maxChars
const MAX_CATEGORY_CHARS = 64;
// The server's rule after trimming, collapsing spaces and lower-casing (services/validation.py):
// letters and digits of any script ("préférence"), and _ . / : - and spaces after the first.
const CATEGORY_RULE = /^[\p{L}\p{N}][\p{L}\p{N}\p{M}_ ./:-]*$/u;

/** Characters as the server counts them (code points, after trimming). */
export function charCount(value: string): number {
  let n = 0;
  for (const _ of value.trim()) n++;
  return n;
}

export function contentProblem(value: string, maxChars: number): string | null {
  const n = charCount(value);
  if (n === 0) return "Write the memory before saving.";
  if (n > maxChars) {
    return `The memory is ${n.toLocaleString()} characters; the limit is ${maxChars.toLocaleString()}. Split it into smaller memories.`;
  }
  return null;
}

export function normalCategory(value: string): string {
  return value.normalize("NFC").trim().replace(/\s+/g, " ").toLowerCase();
}

export function categoryProblem(value: string): string | null {
  const tag = normalCategory(value);
  if (!tag) return null;
  if (tag.length > MAX_CATEGORY_CHARS) {
    return `A category can be at most ${MAX_CATEGORY_CHARS} characters; this one has ${tag.length}.`;
  }
  if (!CATEGORY_RULE.test(tag)) {
    return "A category uses only letters, digits, spaces and _ . / : - and starts with a letter or digit.";
  }
  return null;
}
