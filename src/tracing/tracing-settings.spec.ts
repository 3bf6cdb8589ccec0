import { DEFAULT_SERVICE_NAME, serviceNameOf, tracingRequested } from './tracing-settings';

describe('tracingRequested', () => {
  it('is off when nothing about traces is set', () => {
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ', OTEL_SERVICE_NAME: 'x' })).toBe(
      false,
    );
  });

  it('is on with an OTLP endpoint, for all signals or for traces', () => {
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(
      tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }),
    ).toBe(true);
  });

  it('is on when OTEL_TRACES_EXPORTER names an exporter, even with no endpoint', () => {
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: ' otlp , console ' })).toBe(true);
  });

  it('is off when OTEL_TRACES_EXPORTER is none, whatever the endpoint', () => {
    expect(
      tracingRequested({
        OTEL_TRACES_EXPORTER: 'none',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      }),
    ).toBe(false);
  });

  it('is off with OTEL_SDK_DISABLED=true, whatever else is set', () => {
    const on = {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_TRACES_EXPORTER: 'otlp',
    };
    expect(tracingRequested({ ...on, OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(tracingRequested({ ...on, OTEL_SDK_DISABLED: 'TRUE' })).toBe(false);
    expect(tracingRequested({ ...on, OTEL_SDK_DISABLED: 'false' })).toBe(true);
  });
});

describe('serviceNameOf', () => {
  it('is OTEL_SERVICE_NAME, else tributary', () => {
    expect(serviceNameOf({ OTEL_SERVICE_NAME: 'controller-eu' })).toBe('controller-eu');
    expect(serviceNameOf({ OTEL_SERVICE_NAME: ' ' })).toBe(DEFAULT_SERVICE_NAME);
    expect(serviceNameOf({})).toBe('tributary');
  });
});
