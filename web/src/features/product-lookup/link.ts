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

type Product = { name: string; brand: string; description: string; code: string };

/**
 * A description the wishlist accepts (10 characters at least) from what a database knows;
 * `words` writes the fallback in the reader's language (the name, brand and code are kept).
 */
export function productDescription(p: Product, words: (p: Product, withBrand: boolean) => string): string {
  const d = p.description.trim();
  if (d.length >= 10) return d;
  return words({ ...p, brand: p.brand.trim() }, p.brand.trim() !== '');
}
