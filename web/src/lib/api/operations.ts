import type { operations } from './schema';

/**
 * The bodies of the spec's operations, by operationId (api/openapi.yaml, schema.ts generated):
 * for the requests and answers the spec writes in place rather than under components.schemas,
 * e.g. `RequestBody<'drawSecretSanta'>`, `ResponseBody<'inviteInfo', 200>`.
 */
export type OperationId = keyof operations;

/** The JSON body an operation takes (its application/json request body). */
export type RequestBody<Op extends OperationId> =
  NonNullable<operations[Op]['requestBody']> extends { content: { 'application/json': infer Body } } ? Body : never;

/** The JSON answer an operation gives with that status. */
export type ResponseBody<Op extends OperationId, Status extends keyof operations[Op]['responses']> =
  operations[Op]['responses'][Status] extends { content: { 'application/json': infer Body } } ? Body : never;
