import { Global, Module } from '@nestjs/common';
import { PaginationKeyRepository } from './pagination-key.repository';
import { Paginator } from './paginator';

/** The paginator, for every feature that lists. */
@Global()
@Module({ providers: [Paginator, PaginationKeyRepository], exports: [Paginator] })
export class PaginationModule {}
