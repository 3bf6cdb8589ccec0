/** The API's own name rules, so a form says what the API would answer before it is asked. */
export {
  isInternalStreamName,
  scopeNameProblem,
  streamNameProblem,
} from '../../../src/common/names';
