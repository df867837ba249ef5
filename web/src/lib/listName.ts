import { useCallback } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

/** The name the server gives every user's first list (wishlist's domain.DefaultListName). */
export const DEFAULT_LIST_NAME = 'My Wishlist';

/**
 * A list's name as the reader says it. A chosen name is kept as it is. The server's default name
 * ("My Wishlist", stored so for every user) is the reader's "My Wishlist" only on their own list:
 * on anyone else's it is "Tom's wishlist". `owner` is the name of the person whose list it is,
 * left out (or null) when the reader is that person.
 */
export function listTitle(t: TFunction<'common'>, name: string, owner?: string | null): string {
  if (name !== DEFAULT_LIST_NAME) return name;
  return owner ? t('listName.of', { owner }) : t('listName.mine');
}

/** listTitle in the reader's language: `(name, owner?) => title`. */
export function useListName(): (name: string, owner?: string | null) => string {
  const { t } = useTranslation('common');
  return useCallback((name: string, owner?: string | null) => listTitle(t, name, owner), [t]);
}
