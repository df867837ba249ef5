/** The share link's last part: the item name lower-cased and hyphenated ('Toy Racing Car' → 'toy-racing-car'). */
export function shareSlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || 'gift';
}

/** The name a share link stands for ('toy-racing-car' → 'Toy Racing Car'). */
export function nameFromSlug(slug: string): string {
  return slug
    .split('-')
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

export function shareLink(origin: string, name: string): string {
  return `${origin}/share/${shareSlug(name)}`;
}

export interface ShareTarget {
  id: 'whatsapp' | 'facebook' | 'twitter' | 'sms';
  label: string;
  href: string;
}

/** The text sent with the link: the message and the item. */
export function shareText(message: string, name: string): string {
  const text = message.trim() || 'I would really love this for Christmas';
  return `${text}: ${name}`;
}

/** Links that open each app's own share screen with the message and the link filled in. */
export function shareTargets(message: string, name: string, link: string): ShareTarget[] {
  const text = shareText(message, name);
  const e = encodeURIComponent;
  return [
    { id: 'whatsapp', label: 'WhatsApp', href: `https://wa.me/?text=${e(`${text} ${link}`)}` },
    { id: 'facebook', label: 'Facebook', href: `https://www.facebook.com/sharer/sharer.php?u=${e(link)}` },
    { id: 'twitter', label: 'Twitter', href: `https://twitter.com/intent/tweet?text=${e(text)}&url=${e(link)}` },
    { id: 'sms', label: 'Message', href: `sms:?&body=${e(`${text} ${link}`)}` },
  ];
}

