import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An attribute as OTLP/JSON writes it: one of these value kinds. */
export interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: number | string; boolValue?: boolean };
}

/** One exported span, with the resource and instrumentation scope it came under. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: OtlpAttribute[];
  scope: string;
  resource: OtlpAttribute[];
}

interface ExportRequest {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      scope?: { name?: string };
      spans?: Omit<ReceivedSpan, 'scope' | 'resource'>[];
    }[];
  }[];
}

/** A string attribute's value, or undefined. */
export const attributeOf = (
  attributes: OtlpAttribute[],
  key: string,
): string | number | boolean | undefined => {
  const value = attributes.find((attribute) => attribute.key === key)?.value;
  return value?.stringValue ?? value?.intValue ?? value?.boolValue;
};

/**
 * A collector's OTLP/HTTP trace endpoint, as small as it gets: takes `POST /v1/traces` in JSON
 * (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`), keeps the spans and every request's body as sent.
 * With `answering: false` it takes requests and never answers, as a collector that hangs.
 */
export class OtlpReceiver {
  /** Every request received, whatever its path: `POST /v1/traces` and the body as text. */
  readonly requests: { method: string; path: string; contentType?: string; body: string }[] = [];

  private readonly server: Server;

  private constructor(answering: boolean) {
    this.server = createServer((req, res) => void this.receive(req, res, answering));
  }

  static async start({ answering = true } = {}): Promise<OtlpReceiver> {
    const receiver = new OtlpReceiver(answering);
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  /** What OTEL_EXPORTER_OTLP_ENDPOINT names: the exporter adds `/v1/traces`. */
  get endpoint(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** Every span received, each with its resource and scope. */
  get spans(): ReceivedSpan[] {
    return this.requests
      .filter((request) => request.path === '/v1/traces')
      .flatMap((request) => (JSON.parse(request.body) as ExportRequest).resourceSpans ?? [])
      .flatMap((resourceSpans) =>
        (resourceSpans.scopeSpans ?? []).flatMap((scopeSpans) =>
          (scopeSpans.spans ?? []).map((span) => ({
            ...span,
            scope: scopeSpans.scope?.name ?? '',
            resource: resourceSpans.resource?.attributes ?? [],
          })),
        ),
      );
  }

  /** Everything received, as text, to search for what must never be sent. */
  get text(): string {
    return this.requests.map((request) => request.body).join('\n');
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async receive(
    req: IncomingMessage,
    res: ServerResponse,
    answering: boolean,
  ): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    this.requests.push({
      method: req.method ?? '',
      path: req.url ?? '',
      contentType: req.headers['content-type'],
      body: Buffer.concat(chunks).toString('utf8'),
    });
    if (!answering) return;
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
  }
}
