/**
 * The API's types, generated from the committed OpenAPI document by `npm run cli:types`: one
 * generated file for both of the service's clients, the CLI and the console, so a change of
 * the API reaches both at once.
 */
import type { components } from '../../../src/cli/generated/api';

export type { paths } from '../../../src/cli/generated/api';

type Schemas = components['schemas'];
export type Problem = Schemas['Problem'];
export type ChangeEvent = Schemas['ChangeEvent'];
export type StreamProperty = Schemas['StreamProperty'];
export type CreateStreamRequest = Schemas['CreateStreamRequest'];
export type UpdateStreamRequest = Schemas['UpdateStreamRequest'];
export type ScalingConfig = Schemas['ScalingConfig'];
export type RetentionConfig = Schemas['RetentionConfig'];
export type TimeBasedRetention = Schemas['TimeBasedRetention'];
export type StreamDescription = Schemas['StreamDescription'];
export type ScaleMetadata = Schemas['ScaleMetadata'];
export type Segment = Schemas['Segment'];
export type ReaderGroupProperty = Schemas['ReaderGroupProperty'];
export type AuditEvent = Schemas['AuditEvent'];
export type HealthResult = Schemas['HealthResult'];
export type HealthStatus = Schemas['HealthStatus'];
export type ApplyResult = Schemas['ApplyResult'];
export type ApplyChange = Schemas['ApplyChange'];
export type KeyRange = Schemas['KeyRange'];
export type ScaleStreamRequest = Schemas['ScaleStreamRequest'];
export type ScaleStreamResult = Schemas['ScaleStreamResult'];
export type StreamSegments = Schemas['StreamSegments'];
export type SegmentDetail = Schemas['SegmentDetail'];
export type Identity = Schemas['Identity'];
export type AccessExplanation = Schemas['AccessExplanation'];
export type MissingPermission = Schemas['ProblemMissingPermission'];
export type ScopePolicy = Schemas['ScopePolicy'];
export type PolicyViolation = Schemas['ProblemPolicyViolation'];
export type ScopeCompliance = Schemas['ScopeCompliance'];
export type LoadScale = Schemas['LoadScale'];
