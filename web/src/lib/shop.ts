/** A shopping search for the given words, opened in a new tab by the Shop buttons. */
export function shopSearchUrl(query: string): string {
  const words = query.trim() || 'gift';
  return `https://www.google.com/search?tbm=shop&q=${encodeURIComponent(words)}`;
}

export function openInNewTab(url: string): void {
  window.open(url, '_blank', 'noopener,noreferrer');
}
