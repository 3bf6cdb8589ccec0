import { context, INVALID_SPAN_CONTEXT, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { startInProcessTracing } from '../../test/support/in-process-tracing';
import { activeTraceFields } from './trace-fields';

describe('activeTraceFields', () => {
  it('is nothing when traces were never started', () => {
    expect(activeTraceFields()).toBeUndefined();
  });

  describe('with the SDK started', () => {
    let tracing: ReturnType<typeof startInProcessTracing>;
    beforeAll(() => (tracing = startInProcessTracing()));
    afterAll(() => tracing.stop());

    it("is the active span's trace and span ids, as lowercase hex", () => {
      const fields = tracing.tracer.startActiveSpan('request', (span) => {
        try {
          return { seen: activeTraceFields(), expected: span.spanContext() };
        } finally {
          span.end();
        }
      });
      expect(fields.seen).toEqual({
        trace_id: fields.expected.traceId,
        span_id: fields.expected.spanId,
      });
      expect(fields.seen?.trace_id).toMatch(/^[0-9a-f]{32}$/);
      expect(fields.seen?.span_id).toMatch(/^[0-9a-f]{16}$/);
    });

    it('follows the span across awaits', async () => {
      const fields = await tracing.tracer.startActiveSpan('request', async (span) => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        span.end();
        return { seen: activeTraceFields(), expected: span.spanContext().spanId };
      });
      expect(fields.seen?.span_id).toBe(fields.expected);
    });

    it('is nothing outside any span', () => {
      expect(activeTraceFields()).toBeUndefined();
    });

    it('is nothing when the active span has no valid ids', () => {
      const invalid = trace.setSpan(ROOT_CONTEXT, trace.wrapSpanContext(INVALID_SPAN_CONTEXT));
      expect(context.with(invalid, activeTraceFields)).toBeUndefined();
    });
  });
});
