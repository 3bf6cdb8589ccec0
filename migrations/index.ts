import { ScopesAndStreams1763800000000 } from './1763800000000-ScopesAndStreams';
import { EpochsAndReaderGroups1763900000000 } from './1763900000000-EpochsAndReaderGroups';
import { AuditEvents1764000000000 } from './1764000000000-AuditEvents';
import { Versions1764100000000 } from './1764100000000-Versions';

/** Every migration, oldest first. A new migration is added here in the same commit. */
export const migrations = [
  ScopesAndStreams1763800000000,
  EpochsAndReaderGroups1763900000000,
  AuditEvents1764000000000,
  Versions1764100000000,
];
