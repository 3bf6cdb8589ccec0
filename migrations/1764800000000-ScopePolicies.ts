import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The policy a platform team sets on a scope (docs/extensions.md section 10): one document per scope, with a
 * version of its own for its entity tag. Deleting a scope deletes its policy.
 */
export class ScopePolicies1764800000000 implements MigrationInterface {
  name = 'ScopePolicies1764800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE scope_policies (
        scope_name text NOT NULL,
        policy jsonb NOT NULL,
        version bigint NOT NULL DEFAULT 1,
        CONSTRAINT scope_policies_pkey PRIMARY KEY (scope_name),
        CONSTRAINT scope_policies_scope_name_fkey FOREIGN KEY (scope_name)
          REFERENCES scopes (name) ON DELETE CASCADE,
        CONSTRAINT scope_policies_policy_object CHECK (jsonb_typeof(policy) = 'object'),
        CONSTRAINT scope_policies_version_positive CHECK (version >= 1)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE scope_policies`);
  }
}
