import type { paths } from './schema';

/**
 * The API's URLs, typed by api/openapi.yaml: the path template must be one of the spec's paths
 * (schema.ts, generated), its `{name}` placeholders are the parameters the call must give (no
 * more, no fewer), and apiRoute's method must be one the spec has for that path. A route the
 * spec does not have, or a parameter it does not name, fails `tsc` instead of answering 404.
 */

/** A path template of the spec, e.g. '/api/shared/{token}/items/{itemId}/claim'. */
export type ApiPath = keyof paths & string;

/** The names of a template's `{name}` placeholders, as a union ('token' | 'itemId'). */
export type Placeholders<T extends string> = T extends `${string}{${infer Name}}${infer Rest}`
  ? Name | Placeholders<Rest>
  : never;

/** The values a template's placeholders take: one string each. */
export type PathParams<P extends ApiPath> = { [K in Placeholders<P>]: string };

/**
 * No second argument for a template without placeholders, the params object otherwise. Spread
 * over a union of paths, so a path not in the spec is reported as that, not as an argument count.
 */
type ParamsArg<P extends ApiPath> = P extends unknown ? ([Placeholders<P>] extends [never] ? [] : [params: PathParams<P>]) : never;

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** The methods the spec has for a path, upper case as fetch and RTK Query send them. */
export type ApiMethod<P extends ApiPath> = {
  // openapi-typescript writes `get?: never` for a method the path does not have.
  [M in Method]: [Exclude<paths[P][M], undefined>] extends [never] ? never : Uppercase<M>;
}[Method];

/**
 * The URL of a spec path, each placeholder replaced by its value, URI-encoded (so a token or id
 * never adds a segment or a query). Query strings are the caller's to append.
 */
export function apiPath<P extends ApiPath>(path: P, ...[params]: ParamsArg<P>): string {
  const values: Record<string, string> = params ?? {};
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    // Only a caller that got around the types can get here; a URL with '{id}' in it must not go out.
    if (value === undefined) throw new Error(`apiPath: no value for {${name}} in ${path}`);
    return encodeURIComponent(value);
  });
}

/**
 * The URL and method of a call, both checked against the spec: RTK Query takes it as it is
 * (`query: () => apiRoute('GET', '/api/lists')`, or spread with a body), fetch as its two parts.
 */
export function apiRoute<P extends ApiPath, M extends ApiMethod<P>>(
  method: M,
  path: P,
  ...params: ParamsArg<P>
): { url: string; method: M } {
  return { url: apiPath(path, ...params), method };
}

/** The query parameters the spec has for a path's method (RTK Query's `params`, or a URLSearchParams). */
export type ApiQuery<P extends ApiPath, M extends ApiMethod<P>> =
  paths[P][Lowercase<M> & Method] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
