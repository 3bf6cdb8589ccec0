import type { components } from './generated/api';

type Schemas = components['schemas'];

/** `GET .../streams/{t}/description` (extensions.md section 4). */
export interface StreamDescription {
  scopeName: string;
  streamName: string;
  state: 'ACTIVE' | 'SEALED';
  createdAt: number;
  updatedAt: number;
  configuration: Schemas['StreamProperty'];
  currentEpoch: number;
  activeSegments: Schemas['Segment'][];
  lastScaledAt?: number;
  readerGroups: string[];
}

interface NoParameters {
  query?: never;
  header?: never;
  path?: never;
  cookie?: never;
}

interface Answers<T> {
  200: { headers: Record<string, unknown>; content: { 'application/json': T } };
  default: {
    headers: Record<string, unknown>;
    content: { 'application/problem+json': Schemas['Problem'] };
  };
}

/**
 * Extensions the CLI uses before the committed OpenAPI document describes them, typed the way
 * `openapi-typescript` would. Once `openapi.json` holds them, `npm run cli:types` makes these
 * entries redundant and they go.
 */
export interface PendingPaths {
  '/v1/scopes/{scopeName}/streams/{streamName}/description': {
    parameters: NoParameters;
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: { scopeName: string; streamName: string };
        cookie?: never;
      };
      requestBody?: never;
      responses: Answers<StreamDescription>;
    };
  };
}
