import { ConflictError, NotFoundError } from '@tickring/core/common';
import type { Group, GroupStore } from '@tickring/core/jobs';
import type { EmbeddedDatabase, SqlValue } from './database.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS executor_groups (
  app_name TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  address_type TEXT NOT NULL,
  address_list TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  access_token_set_at INTEGER,
  -- The group's own access token, sealed; never part of a Group read.
  access_token_sealed TEXT,
  -- Its jobs' default alert channels (a JSON array of ids); NULL: none.
  alert_channels TEXT
);
`;

const GROUP_COLUMNS =
  'app_name, title, address_type, address_list, created_at, updated_at, access_token_set_at, alert_channels';

interface GroupRow {
  [column: string]: SqlValue;
  app_name: string;
  title: string;
  address_type: string;
  address_list: string;
  created_at: number;
  updated_at: number;
  access_token_set_at: number | null;
  alert_channels: string | null;
}

/** Executor groups in SQLite; a group's sealed access token is kept beside it, never in a Group read. */
export class SqliteGroupStore implements GroupStore {
  constructor(private readonly options: { database: EmbeddedDatabase }) {
    options.database.ensureSchema('executor_groups', SCHEMA);
    // A database written before groups had alert channels gets the column (NULL: none).
    options.database.ensureColumns('executor_groups', [['alert_channels', 'TEXT']]);
  }

  async create(group: Group): Promise<void> {
    const { changes } = this.sql(
      `INSERT INTO executor_groups (${GROUP_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (app_name) DO NOTHING`,
    ).run(
      group.appName,
      group.title,
      group.addressType,
      JSON.stringify(group.addressList),
      group.createdAt,
      group.updatedAt,
      group.accessTokenSetAt ?? null,
      channelsColumn(group),
    );
    if (changes === 0) throw new ConflictError(`group ${group.appName} already exists`);
  }

  async get(appName: string): Promise<Group | undefined> {
    const row = this.sql(`SELECT ${GROUP_COLUMNS} FROM executor_groups WHERE app_name = ?`).get<GroupRow>(
      appName,
    );
    return row ? groupOf(row) : undefined;
  }

  async list(): Promise<Group[]> {
    const rows = this.sql(`SELECT ${GROUP_COLUMNS} FROM executor_groups`).all<GroupRow>();
    return rows.map(groupOf).sort((a, b) => a.appName.localeCompare(b.appName));
  }

  async replace(group: Group): Promise<void> {
    // The access token (and when it was set) stays as it is.
    this.updateExisting(
      group.appName,
      'title = ?, address_type = ?, address_list = ?, alert_channels = ?, created_at = ?, updated_at = ?',
      [
        group.title,
        group.addressType,
        JSON.stringify(group.addressList),
        channelsColumn(group),
        group.createdAt,
        group.updatedAt,
      ],
    );
  }

  async delete(appName: string): Promise<void> {
    const { changes } = this.sql('DELETE FROM executor_groups WHERE app_name = ?').run(appName);
    if (changes === 0) throw new NotFoundError(`group ${appName} does not exist`);
  }

  async setAccessToken(appName: string, sealed: string, setAt: number): Promise<void> {
    this.updateExisting(appName, 'access_token_sealed = ?, access_token_set_at = ?, updated_at = ?', [
      sealed,
      setAt,
      setAt,
    ]);
  }

  async clearAccessToken(appName: string): Promise<void> {
    this.updateExisting(appName, 'access_token_sealed = NULL, access_token_set_at = NULL', []);
  }

  async getSealedAccessToken(appName: string): Promise<string | undefined> {
    const row = this.sql('SELECT access_token_sealed FROM executor_groups WHERE app_name = ?').get<{
      access_token_sealed: string | null;
    }>(appName);
    return row?.access_token_sealed ?? undefined;
  }

  private updateExisting(appName: string, set: string, values: SqlValue[]): void {
    const { changes } = this.sql(`UPDATE executor_groups SET ${set} WHERE app_name = ?`).run(
      ...values,
      appName,
    );
    if (changes === 0) throw new NotFoundError(`group ${appName} does not exist`);
  }

  private sql(text: string) {
    return this.options.database.db.prepare(text);
  }
}

function channelsColumn(group: Group): string | null {
  return group.alertChannels === undefined ? null : JSON.stringify(group.alertChannels);
}

function groupOf(row: GroupRow): Group {
  return {
    appName: row.app_name,
    title: row.title,
    addressType: row.address_type as Group['addressType'],
    addressList: JSON.parse(row.address_list) as string[],
    ...(row.access_token_set_at === null ? {} : { accessTokenSetAt: row.access_token_set_at }),
    ...(row.alert_channels === null ? {} : { alertChannels: JSON.parse(row.alert_channels) as string[] }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
