/** The API's own name rules, so a form says what the API would answer before it is asked. */
export {
  isInternalStreamName,
  MAX_SCOPE_NAME_LENGTH,
  MAX_STREAM_NAME_LENGTH,
  scopeNameProblem,
  streamNameProblem,
} from '../../../src/common/names';
