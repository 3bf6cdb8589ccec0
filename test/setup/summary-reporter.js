/** Ends every run with one plain line that any CI can read: "tests: N passed, N failed, N skipped". */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const { numPassedTests, numFailedTests, numPendingTests, numTodoTests } = results;
    // A suite that could not even run has no failed test of its own: count it as one.
    const failed = numFailedTests + results.numRuntimeErrorTestSuites;
    process.stdout.write(
      `\ntests: ${numPassedTests} passed, ${failed} failed, ${numPendingTests + numTodoTests} skipped\n`,
    );
  }
}

module.exports = SummaryReporter;
