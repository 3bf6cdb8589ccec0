import { CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'scopes' })
export class ScopeEntity {
  @PrimaryColumn({ type: 'text' })
  name: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
