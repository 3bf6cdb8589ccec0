import { Injectable } from '@nestjs/common';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';
import { PaginationKeyEntity } from './pagination-key.entity';

/**
 * The statement of the pagination_key table: the one key every instance derives its
 * continuation-token key from.
 */
@Injectable()
export class PaginationKeyRepository {
  constructor(@InjectDb() private readonly db: Db) {}

  async key(): Promise<Buffer> {
    const [row] = await this.db.tx.getRepository(PaginationKeyEntity).find();
    return row.key;
  }
}
