import { ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'ReaderGroupProperty' })
export class ReaderGroupPropertyDto {
  scopeName: string;
  readerGroupName: string;
  /** Scoped names, `scope/stream`. */
  streamList: string[];
  onlineReaderIds: string[];
}
