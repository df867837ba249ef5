import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { CATEGORIES, UNCATEGORIZED } from '../types';

/**
 * A stored category as the reader's language says it (short names: 'categoryNames'; the add form's
 * longer labels are 'categories'); a category the form does not offer is shown as stored.
 */
export function useCategoryLabel(): (category: string) => string {
  const { t } = useTranslation('wishlist');
  return useCallback(
    (category: string) => {
      if (category === UNCATEGORIZED) return t('uncategorized');
      return (CATEGORIES as readonly string[]).includes(category) ? t(`categoryNames.${category}`) : category;
    },
    [t],
  );
}
