import { useEffect } from 'react';

export const APP_NAME = 'Santa Wishlist';

/** Sets the document title for the current screen ('Title | Santa Wishlist', or exactly `title`). */
export function usePageTitle(title: string, exact = false): void {
  useEffect(() => {
    document.title = exact || title === APP_NAME ? title : `${title} | ${APP_NAME}`;
  }, [title, exact]);
}
