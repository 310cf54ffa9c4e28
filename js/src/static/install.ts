/**
 * First import of the transcript entry: before any renderer loads, the string DOM is the global DOM,
 * and the few web APIs the renderers use that a bare JS engine lacks are there, as small as the
 * renderers need them: `URL` (a link's scheme, url.ts), `TextEncoder` and `btoa` (an SVG as a data
 * URL, rich.ts).
 */
import { installStringDom } from "./string-dom";

const scope = globalThis as Record<string, unknown>;

/** Only what url.ts reads: the scheme, and the address as written. Throws on a relative one, as URL does. */
class SchemeUrl {
  readonly protocol: string;
  readonly href: string;
  constructor(url: string) {
    const match = /^([a-zA-Z][a-zA-Z0-9+.-]*):(\/\/[^/?#\s]+)?/.exec(url);
    if (!match) throw new TypeError(`Invalid URL: ${url}`);
    const protocol = `${(match[1] ?? "").toLowerCase()}:`;
    if ((protocol === "http:" || protocol === "https:") && !match[2]) throw new TypeError(`Invalid URL: ${url}`);
    this.protocol = protocol;
    this.href = url;
  }
}

class Utf8Encoder {
  encode(text: string): Uint8Array {
    const bytes: number[] = [];
    for (const char of text) {
      const code = char.codePointAt(0) ?? 0;
      if (code < 0x80) bytes.push(code);
      else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 63));
      else if (code < 0x10000) bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
      else bytes.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
    }
    return Uint8Array.from(bytes);
  }
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function latin1ToBase64(binary: string): string {
  let out = "";
  for (let i = 0; i < binary.length; i += 3) {
    const [a, b, c] = [binary.charCodeAt(i), binary.charCodeAt(i + 1), binary.charCodeAt(i + 2)];
    const n = (a << 16) | ((b || 0) << 8) | (c || 0);
    out += BASE64[(n >> 18) & 63] ?? "";
    out += BASE64[(n >> 12) & 63] ?? "";
    out += i + 1 < binary.length ? (BASE64[(n >> 6) & 63] ?? "") : "=";
    out += i + 2 < binary.length ? (BASE64[n & 63] ?? "") : "=";
  }
  return out;
}

scope.URL ??= SchemeUrl;
scope.TextEncoder ??= Utf8Encoder;
scope.btoa ??= latin1ToBase64;

export const staticDocument = installStringDom();
