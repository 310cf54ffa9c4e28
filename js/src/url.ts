/** The only link targets that survive: http(s), and mailto where allowed. Returns null otherwise. */
export function safeHref(url: unknown, allowMailto = true): string | null {
  if (typeof url !== "string") return null;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null; // relative or malformed
  }
  const ok = parsed.protocol === "http:" || parsed.protocol === "https:" || (allowMailto && parsed.protocol === "mailto:");
  return ok ? parsed.href : null;
}

/** Makes `a` open outside the notebook without giving the page access to it. */
export function hardenLink(a: HTMLAnchorElement | Element): void {
  a.setAttribute("target", "_blank");
  a.setAttribute("rel", "noopener noreferrer nofollow");
}
