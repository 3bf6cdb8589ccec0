import type { ObjectLiteral, Repository, SelectQueryBuilder } from 'typeorm';

/**
 * Deletes the rows that `oldest` selects (already filtered, ordered and limited to a batch, its
 * alias `old`), each reached by its ctid: the index that orders them is read from its old end,
 * whatever the table's size, and rows another purge holds are skipped, so several instances
 * purge side by side without waiting. How many it deleted.
 */
export async function deleteOldest<T extends ObjectLiteral>(
  repository: Repository<T>,
  oldest: (query: SelectQueryBuilder<T>) => SelectQueryBuilder<T>,
): Promise<number> {
  const batch = oldest(repository.createQueryBuilder('old').select('old.ctid'))
    .setLock('pessimistic_write')
    .setOnLocked('skip_locked');
  const deleted = await repository
    .createQueryBuilder()
    .delete()
    .where(`ctid IN (${batch.getQuery()})`)
    .setParameters(batch.getParameters())
    .execute();
  return deleted.affected ?? 0;
}
