import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';

/**
 * Every operation's id: the API document's operationId, the name a permission check and an
 * audit record give it. One spelling, here.
 */
export const Operation = {
  createScope: 'createScope',
  listScopes: 'listScopes',
  getScope: 'getScope',
  deleteScope: 'deleteScope',
  getScopePolicy: 'getScopePolicy',
  updateScopePolicy: 'updateScopePolicy',
  getScopeCompliance: 'getScopeCompliance',
  createStream: 'createStream',
  listStreams: 'listStreams',
  getStream: 'getStream',
  describeStream: 'describeStream',
  updateStream: 'updateStream',
  getScalingEvents: 'getScalingEvents',
  scaleStream: 'scaleStream',
  reportLoad: 'reportLoad',
  getLoadScales: 'getLoadScales',
  getSegments: 'getSegments',
  getSegment: 'getSegment',
  updateStreamState: 'updateStreamState',
  deleteStream: 'deleteStream',
  listReaderGroups: 'listReaderGroups',
  getReaderGroup: 'getReaderGroup',
  createReaderGroup: 'createReaderGroup',
  deleteReaderGroup: 'deleteReaderGroup',
  setReaderOnline: 'setReaderOnline',
  setReaderOffline: 'setReaderOffline',
  listAuditEvents: 'listAuditEvents',
  listEvents: 'listEvents',
  applyDocument: 'applyDocument',
  whoami: 'whoami',
  explainAccess: 'explainAccess',
} as const;
export type OperationId = (typeof Operation)[keyof typeof Operation];

export const OPERATION_ID = 'tributary:operation-id';

/** Names a route's operation, for the API document and for whoever asks the handler's metadata. */
export const OperationOf = (id: OperationId): MethodDecorator =>
  applyDecorators(ApiOperation({ operationId: id }), SetMetadata(OPERATION_ID, id));
