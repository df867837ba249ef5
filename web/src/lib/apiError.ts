import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';
import type { components } from './api/schema';
import { currentLanguage, hasText, translate } from './i18n';

/** The gateway's error body: {"error": {"code", "message", "fields"}} (api/openapi.yaml's Error). */
export type GatewayErrorBody = components['schemas']['Error'];

/**
 * An error answer's body as far as it is checked. Checked at run time because an error may come
 * from whatever answered instead of the gateway (a proxy's or the dev server's page), so only
 * `error` being an object is known; each of its fields may be missing, and is read as such.
 */
type ErrorBodyLike = { error: Partial<GatewayErrorBody['error']> };

function isGatewayErrorBody(data: unknown): data is ErrorBodyLike {
  return (
    !!data &&
    typeof data === 'object' &&
    'error' in data &&
    !!(data as ErrorBodyLike).error &&
    typeof (data as ErrorBodyLike).error === 'object'
  );
}

function isFetchError(err: unknown): err is FetchBaseQueryError {
  return !!err && typeof err === 'object' && 'status' in err;
}

/** The API's machine code of a gateway error answer ('not_enough_left'), if there is one. */
export function errorCode(err: unknown): string | undefined {
  return isFetchError(err) && isGatewayErrorBody(err.data) ? err.data.error.code || undefined : undefined;
}

/**
 * The text for an API error code in the language shown: 'common' catalog, key `errors.<code>`. In
 * English the server's own message is kept (the words of docs/spec.md, often more precise, e.g.
 * with a limit); in another language a known code shows the catalog's text and an unknown code the
 * server's English message.
 */
function codeText(code: string | undefined, serverMessage: string | undefined): string | undefined {
  if (code && currentLanguage() !== 'en' && hasText(`errors.${code}`)) return translate(`errors.${code}`);
  return serverMessage || (code && hasText(`errors.${code}`) ? translate(`errors.${code}`) : undefined);
}

/**
 * A message a person can read, from whatever RTK Query or fetch threw. This is the one place
 * where API error codes become texts.
 */
export function errorMessage(err: unknown, fallback?: string): string {
  if (isFetchError(err)) {
    if (isGatewayErrorBody(err.data)) {
      const text = codeText(err.data.error.code, err.data.error.message);
      if (text) return text;
    }
    if (err.status === 'FETCH_ERROR') return translate('errors.network');
    if (err.status === 'PARSING_ERROR') return `${err.originalStatus}: ${String(err.data ?? '')}`.trim();
    if (err.status === 'TIMEOUT_ERROR') return translate('errors.timeout');
    if (typeof err.status === 'number') {
      const text = typeof err.data === 'string' ? err.data : err.data ? JSON.stringify(err.data) : '';
      return `${err.status}: ${text}`.trim();
    }
    if ('error' in err && typeof err.error === 'string') return err.error;
  }
  if (err instanceof Error && err.message) return err.message;
  const serialized = err as SerializedError | undefined;
  if (serialized && typeof serialized.message === 'string' && serialized.message) return serialized.message;
  return fallback ?? translate('errors.unknown');
}

/** Field messages from a 4xx answer, keyed by field name. */
export function fieldErrors(err: unknown): Record<string, string> {
  if (isFetchError(err) && isGatewayErrorBody(err.data) && err.data.error.fields) {
    return { ...err.data.error.fields };
  }
  return {};
}
