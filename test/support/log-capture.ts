import type { DestinationStream } from 'pino';

export type LogLine = Record<string, unknown>;

/** A pino destination that keeps what is written: the raw text, and each line parsed. */
export class LogCapture implements DestinationStream {
  private readonly chunks: string[] = [];

  write(chunk: string): void {
    this.chunks.push(chunk);
  }

  /** Everything written, exactly as it would have reached stdout. */
  get text(): string {
    return this.chunks.join('');
  }

  get lines(): LogLine[] {
    return parseLogLines(this.text);
  }
}

/** Each non-empty line as JSON; throws on a line that is not, naming it. */
export function parseLogLines(text: string): LogLine[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as LogLine;
      } catch {
        throw new Error(`not a JSON log line: ${line}`);
      }
    });
}
