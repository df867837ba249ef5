import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/** The name the server gives every user's first list (wishlist's domain.DefaultListName). */
export const DEFAULT_LIST_NAME = 'My Wishlist';

/** A list's name as the reader's language says it: the server's default name is translated, a chosen one kept. */
export function useListName(): (name: string) => string {
  const { t } = useTranslation('lists');
  return useCallback((name: string) => (name === DEFAULT_LIST_NAME ? t('defaultListName') : name), [t]);
}
