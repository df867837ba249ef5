import { BookIcon, ClothingIcon, ElectronicsIcon, GiftIcon, HomeGoodsIcon, ToysIcon } from './icons';

/** Icons exist for electronics, clothing, toys, home, books; everything else uses 'other'. */
export function categoryIconKind(category: string | null | undefined): 'electronics' | 'clothing' | 'toys' | 'home' | 'books' | 'other' {
  const c = (category ?? '').toLowerCase();
  if (c.startsWith('electronic')) return 'electronics';
  if (c.startsWith('cloth') || c.includes('apparel')) return 'clothing';
  if (c.startsWith('toy') || c.includes('game')) return 'toys';
  if (c.startsWith('home') || c.includes('kitchen')) return 'home';
  if (c.startsWith('book') || c.includes('media')) return 'books';
  return 'other';
}

export function CategoryIcon({ category, size = 20 }: { category: string | null | undefined; size?: number }) {
  const kind = categoryIconKind(category);
  const Icon = {
    electronics: ElectronicsIcon,
    clothing: ClothingIcon,
    toys: ToysIcon,
    home: HomeGoodsIcon,
    books: BookIcon,
    other: GiftIcon,
  }[kind];
  return <Icon size={size} data-category-icon={kind} />;
}
