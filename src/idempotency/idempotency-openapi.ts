import type {
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  ResponseObject,
} from '@nestjs/swagger';
import { problemResponseObject, RETRY_AFTER } from '../openapi/api-problem-responses';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from './idempotency-key';

const KEY_PARAMETER: ParameterObject = {
  name: IDEMPOTENCY_KEY_HEADER,
  in: 'header',
  required: false,
  description:
    'Makes retries of this request safe (extension): the first request with a key is done and ' +
    'its answer kept for `IDEMPOTENCY_TTL_HOURS` (24 by default); a retry with the same key, ' +
    'account, path and body gets that answer again, marked `Idempotent-Replayed: true`, and ' +
    'changes nothing. Successes and client errors are kept (but 401, 403 and 429); server ' +
    'errors are not. 1 to 255 visible ASCII characters.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
  example: '5f0c2a4e-9d1b-4c7e-8a3f-2b6d1e0c9f7a',
};

const REPLAYED_HEADER = {
  [IDEMPOTENT_REPLAYED_HEADER]: {
    description: '`true` when this is the kept answer of an earlier request with the same key.',
    schema: { type: 'string', enum: ['true'] },
  },
};

const MALFORMED_KEY = ' Also a malformed `Idempotency-Key`.';
const KEY_IN_USE =
  ' With `Idempotency-Key`: a request with the same key is still running and did not end in ' +
  'time (`IDEMPOTENCY_KEY_IN_USE`); retry after `Retry-After` seconds.';

const takesKey = (operation: OperationObject): boolean =>
  (operation.parameters ?? []).some(
    (parameter) =>
      'in' in parameter && parameter.in === 'header' && parameter.name === KEY_PARAMETER.name,
  );

/** One operation's additions: the header it takes, the header it may answer, 422 and 409. */
function documentOperation(operation: OperationObject): void {
  operation.parameters = (operation.parameters ?? []).map((parameter) =>
    'in' in parameter && parameter.name === KEY_PARAMETER.name ? KEY_PARAMETER : parameter,
  );
  const responses = operation.responses as Record<string, ResponseObject>;
  for (const [status, response] of Object.entries(responses)) {
    if (/^2\d\d$/.test(status)) {
      responses[status] = { ...response, headers: { ...response.headers, ...REPLAYED_HEADER } };
    }
  }
  const invalid = responses['400'] ?? problemResponseObject(400);
  responses['400'] = { ...invalid, description: invalid.description + MALFORMED_KEY };
  const conflict = responses['409'] ?? problemResponseObject(409);
  responses['409'] = {
    ...conflict,
    description: conflict.description + KEY_IN_USE,
    headers: { ...conflict.headers, ...RETRY_AFTER },
  };
  responses['422'] = problemResponseObject(422);
}

/**
 * Documents Idempotency-Key in full on the operations whose route is `@Idempotent()` (the
 * decorator names the header; its description, the replay header and the statuses it adds are
 * the same for every one of them, so they are written once, here).
 */
export function documentIdempotency(document: OpenAPIObject): OpenAPIObject {
  for (const path of Object.values(document.paths)) {
    if (path.post && takesKey(path.post)) documentOperation(path.post);
  }
  return document;
}
