/** Python's `html.unescape` (HTML5 rules). @module */
import { decodeHTML } from 'entities';

// Python's html._charref: a numeric reference, or up to 32 name characters, each with an optional ';'.
const CHARREF = /&(#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?)/g;

// Python's html._invalid_charrefs: NUL, CR and the Windows-1252 block 0x80-0x9f.
// (Node's TextDecoder('windows-1252') returns '' for a lone byte here, hence the table.)
const WINDOWS_1252 = [
  0x20ac, 0x81, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8d, 0x017d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x9d, 0x017e, 0x0178,
];
function invalidCharref(n: number): string | undefined {
  if (n === 0x00) return '\ufffd';
  if (n === 0x0d) return '\r';
  if (n >= 0x80 && n <= 0x9f) return String.fromCharCode(WINDOWS_1252[n - 0x80]!);
  return undefined;
}

// Python's html._invalid_codepoints: these references decode to nothing.
function invalidCodepoint(n: number): boolean {
  return (
    (n >= 0x1 && n <= 0x8) ||
    n === 0xb ||
    (n >= 0xe && n <= 0x1f) ||
    (n >= 0x7f && n <= 0x9f) ||
    (n >= 0xfdd0 && n <= 0xfdef) ||
    (n & 0xfffe) === 0xfffe
  );
}

function numeric(ref: string): string {
  const hex = ref[1] === 'x' || ref[1] === 'X';
  const digits = ref.slice(hex ? 2 : 1).replace(/;$/, '');
  const n = Number.parseInt(digits, hex ? 16 : 10);
  const special = invalidCharref(n);
  if (special !== undefined) return special;
  if ((n >= 0xd800 && n <= 0xdfff) || n > 0x10ffff) return '\ufffd';
  if (invalidCodepoint(n)) return '';
  return String.fromCodePoint(n);
}

/**
 * Python's `html.unescape(s)`: named references of HTML5 (legacy ones without `;`, longest prefix match),
 * numeric references with `&#x80;`-`&#x9f;` remapped to Windows-1252, invalid code points to U+FFFD, and the
 * non-characters Python drops.
 */
export function pyUnescape(s: string): string {
  if (!s.includes('&')) return s;
  // A named reference has no '&' inside, so entities' legacy decoding of it alone follows Python's prefix rule.
  return s.replace(CHARREF, (whole, ref: string) => (ref[0] === '#' ? numeric(ref) : decodeHTML(whole)));
}
