import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';

/** The gateway's error body: {"error": {"code", "message", "fields"}}. */
export interface GatewayErrorBody {
  error: { code?: string; message?: string; fields?: Record<string, string> };
}

function isGatewayErrorBody(data: unknown): data is GatewayErrorBody {
  return (
    !!data &&
    typeof data === 'object' &&
    'error' in data &&
    !!(data as GatewayErrorBody).error &&
    typeof (data as GatewayErrorBody).error === 'object'
  );
}

function isFetchError(err: unknown): err is FetchBaseQueryError {
  return !!err && typeof err === 'object' && 'status' in err;
}

/** A message a person can read, from whatever RTK Query or fetch threw. */
export function errorMessage(err: unknown, fallback = 'Unknown error'): string {
  if (isFetchError(err)) {
    if (isGatewayErrorBody(err.data) && err.data.error.message) return err.data.error.message;
    if (err.status === 'FETCH_ERROR') return 'Could not reach the server. Check your connection.';
    if (err.status === 'PARSING_ERROR') return `${err.originalStatus}: ${String(err.data ?? '')}`.trim();
    if (err.status === 'TIMEOUT_ERROR') return 'The server took too long to answer.';
    if (typeof err.status === 'number') {
      const text = typeof err.data === 'string' ? err.data : err.data ? JSON.stringify(err.data) : '';
      return `${err.status}: ${text}`.trim();
    }
    if ('error' in err && typeof err.error === 'string') return err.error;
  }
  if (err instanceof Error && err.message) return err.message;
  const serialized = err as SerializedError | undefined;
  if (serialized && typeof serialized.message === 'string' && serialized.message) return serialized.message;
  return fallback;
}

/** Field messages from a 4xx answer, keyed by field name. */
export function fieldErrors(err: unknown): Record<string, string> {
  if (isFetchError(err) && isGatewayErrorBody(err.data) && err.data.error.fields) {
    return { ...err.data.error.fields };
  }
  return {};
}
