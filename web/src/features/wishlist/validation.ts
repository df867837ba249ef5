import en from './locales/en.json';
import { shopSearchUrl } from '../../lib/shop';
import type { NewWishlistItem } from './types';

export interface AddItemValues {
  name: string;
  description: string;
  category: string;
  price: string;
  searchQuery: string;
  imageUrl: string;
  /** The shop page the item was imported from; blank: a shop search for the keywords. */
  shoppingUrl?: string;
}

export type AddItemErrors = Partial<Record<keyof AddItemValues, string>>;

export const EMPTY_ADD_ITEM: AddItemValues = {
  name: '',
  description: '',
  category: '',
  price: '',
  searchQuery: '',
  imageUrl: '',
};

/** The add form's messages, word for word from docs/spec.md, section 5: validation rules (the English catalog's 'validation'). */
export const MESSAGES: Record<keyof typeof en.validation, string> = en.validation;

/** http(s) URLs, and inline images read from a chosen file. */
export function isValidImageUrl(value: string): boolean {
  if (/^data:image\/[a-z0-9.+-]+;base64,/i.test(value)) return true;
  // Our own stored pictures (an imported shop or product picture).
  if (value.startsWith('/media/')) return !value.includes('..');
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** `messages`: the texts in the language shown (the form passes its catalog's); English by default. */
export function validateAddItem(values: AddItemValues, messages: typeof MESSAGES = MESSAGES): AddItemErrors {
  const errors: AddItemErrors = {};
  if (values.name.trim().length < 3) errors.name = messages.name;
  if (values.description.trim().length < 10) errors.description = messages.description;
  if (values.category.trim().length < 1) errors.category = messages.category;
  const query = values.searchQuery.trim();
  if (query.length > 0 && query.length < 3) errors.searchQuery = messages.searchQuery;
  const image = values.imageUrl.trim();
  if (image && !isValidImageUrl(image)) errors.imageUrl = messages.imageUrl;
  return errors;
}

/** The body the text form sends (docs/spec.md, section 3 'Wishlist item as sent from the text form'). */
export function toNewItem(values: AddItemValues, userId: string): NewWishlistItem {
  const name = values.name.trim();
  const searchQuery = values.searchQuery.trim() || name;
  return {
    name,
    description: values.description.trim(),
    category: values.category,
    price: values.price.trim() || null,
    imageUrl: values.imageUrl.trim() || null,
    searchQuery,
    shoppingUrl: values.shoppingUrl?.trim() || shopSearchUrl(searchQuery),
    features: [],
    aiGenerated: false,
    sentToSanta: false,
    userId,
  };
}
