export interface Answer {
  status: number;
  body: unknown;
}

/**
 * A small fetch client for a service process. Every answer is recorded, so a test can say
 * "no 5xx anywhere" about everything it sent.
 */
export class ApiClient {
  readonly answers: Array<{ call: string; status: number }> = [];

  constructor(readonly baseUrl: string) {}

  async call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: body === undefined ? headers : { 'Content-Type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    this.answers.push({ call: `${method} ${path}`, status: res.status });
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  }

  /** The recorded calls that got a 5xx (503 included: nothing here should make one). */
  serverErrors(): Array<{ call: string; status: number }> {
    return this.answers.filter((answer) => answer.status >= 500);
  }
}
