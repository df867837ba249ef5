/** The first http(s) link in a text: shared pages often arrive as "Title https://…". */
export function firstLink(text: string | null | undefined): string | null {
  if (!text) return null;
  for (const word of text.split(/\s+/)) {
    const candidate = word.replace(/^[<("']+|[>)"'.,;!]+$/g, '');
    try {
      const url = new URL(candidate);
      if (url.protocol === 'http:' || url.protocol === 'https:') return url.toString();
    } catch {
      // not a link
    }
  }
  return null;
}

/**
 * The link a Web Share Target visit carries (manifest share_target, GET url/text/title): the
 * url parameter, else the first link in text (Android apps put it there), else in title.
 */
export function sharedLink(params: URLSearchParams): string | null {
  return firstLink(params.get('url')) ?? firstLink(params.get('text')) ?? firstLink(params.get('title'));
}

/** A link's host for "Imported from …", without www. */
export function hostOf(link: string): string {
  try {
    return new URL(link).hostname.replace(/^www\./, '');
  } catch {
    return link;
  }
}

/** A description the wishlist accepts (10 characters at least) from what a database knows. */
export function productDescription(p: { name: string; brand: string; description: string; code: string }): string {
  const d = p.description.trim();
  if (d.length >= 10) return d;
  const by = p.brand.trim() ? ` by ${p.brand.trim()}` : '';
  return `${p.name}${by} (barcode ${p.code})`;
}
