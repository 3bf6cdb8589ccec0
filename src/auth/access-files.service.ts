import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { AppConfig } from '../config/app-config';
import { StartupError } from '../startup/startup-error';
import { Account, parseAccounts } from './accounts-file';
import { GroupAcls, parseGroupAcls } from './group-acls-file';

/** Reads a file and parses it; a mistake names the file (and the parser names the line). */
function read<T>(file: string, parse: (text: string) => T): T {
  try {
    return parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * The accounts file and the group ACLs file, read at start and on SIGHUP, at no other time
 * (docs/extensions.md section 9). At start a file that does not parse stops the boot; on SIGHUP
 * it keeps its previous contents, and one error line names the file and the line.
 */
@Injectable()
export class AccessFiles implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(AccessFiles.name);
  private accountsRead: ReadonlyMap<string, Account> = new Map();
  private groupAclsRead: GroupAcls = new Map();
  private reads = 0;

  constructor(private readonly config: AppConfig) {}

  get accounts(): ReadonlyMap<string, Account> {
    return this.accountsRead;
  }

  get groupAcls(): GroupAcls {
    return this.groupAclsRead;
  }

  /** How many times the files were read again: what was decided before may have changed. */
  get generation(): number {
    return this.reads;
  }

  onModuleInit(): void {
    if (!this.config.AUTH_ENABLED) return;
    try {
      this.readAccounts();
      this.readGroupAcls();
    } catch (error) {
      throw new StartupError((error as Error).message);
    }
    process.on('SIGHUP', this.reload);
  }

  onModuleDestroy(): void {
    process.off('SIGHUP', this.reload);
  }

  /** Reads both files again; each that does not parse keeps what it had. */
  readonly reload = (): void => {
    this.reads++;
    const failures = [() => this.readAccounts(), () => this.readGroupAcls()].filter((step) => {
      try {
        step();
        return false;
      } catch (error) {
        this.logger.error(`${(error as Error).message}; its previous contents are kept`);
        return true;
      }
    });
    if (failures.length === 0) this.logger.log('accounts and group ACLs read again');
  };

  private readAccounts(): void {
    const file = this.config.AUTH_ACCOUNTS_FILE;
    if (file) this.accountsRead = read(file, parseAccounts);
  }

  private readGroupAcls(): void {
    const file = this.config.AUTH_GROUP_ACLS_FILE;
    if (file) this.groupAclsRead = read(file, parseGroupAcls);
  }
}
