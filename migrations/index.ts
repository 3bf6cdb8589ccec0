import { ScopesAndStreams1763800000000 } from './1763800000000-ScopesAndStreams';
import { EpochsAndReaderGroups1763900000000 } from './1763900000000-EpochsAndReaderGroups';
import { AuditEvents1764000000000 } from './1764000000000-AuditEvents';
import { Versions1764100000000 } from './1764100000000-Versions';
import { Pagination1764200000000 } from './1764200000000-Pagination';
import { IdempotencyRecords1764300000000 } from './1764300000000-IdempotencyRecords';
import { ReaderGroupVersionOnStreamDelete1764400000000 } from './1764400000000-ReaderGroupVersionOnStreamDelete';
import { SegmentLives1764500000000 } from './1764500000000-SegmentLives';
import { ChangeEvents1764600000000 } from './1764600000000-ChangeEvents';
import { AuditDenialCounts1764710000000 } from './1764710000000-AuditDenialCounts';
import { ScopePolicies1764800000000 } from './1764800000000-ScopePolicies';
import { LoadReports1764900000000 } from './1764900000000-LoadReports';
import { LoadScalesIndex1764960000000 } from './1764960000000-LoadScalesIndex';
import { PolicyCounts1765000000000 } from './1765000000000-PolicyCounts';
import { PolicyCountsAtCommit1765100000000 } from './1765100000000-PolicyCountsAtCommit';

/** Every migration, oldest first. A new migration is added here in the same commit. */
export const migrations = [
  ScopesAndStreams1763800000000,
  EpochsAndReaderGroups1763900000000,
  AuditEvents1764000000000,
  Versions1764100000000,
  Pagination1764200000000,
  IdempotencyRecords1764300000000,
  ReaderGroupVersionOnStreamDelete1764400000000,
  SegmentLives1764500000000,
  ChangeEvents1764600000000,
  AuditDenialCounts1764710000000,
  ScopePolicies1764800000000,
  LoadReports1764900000000,
  LoadScalesIndex1764960000000,
  PolicyCounts1765000000000,
  PolicyCountsAtCommit1765100000000,
];
