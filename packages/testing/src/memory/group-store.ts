import { ConflictError, NotFoundError } from '@tickring/core/common';
import type { Group, GroupStore } from '@tickring/core/jobs';

/** Executor groups in memory; a group's sealed access token is kept beside it, never in a Group read. */
export class MemoryGroupStore implements GroupStore {
  /** The stored groups by appName (a test may set one directly). */
  readonly groups = new Map<string, Group>();
  private readonly sealedTokens = new Map<string, string>();

  async create(group: Group): Promise<void> {
    if (this.groups.has(group.appName)) throw new ConflictError(`group ${group.appName} already exists`);
    this.groups.set(group.appName, structuredClone(group));
  }

  async get(appName: string): Promise<Group | undefined> {
    const group = this.groups.get(appName);
    return group && structuredClone(group);
  }

  async list(): Promise<Group[]> {
    return [...this.groups.values()]
      .sort((a, b) => a.appName.localeCompare(b.appName))
      .map((group) => structuredClone(group));
  }

  async replace(group: Group): Promise<void> {
    const current = this.existing(group.appName);
    // The access token (and when it was set) stays as it is; the alert channels are the group's as given.
    const { title, addressType, addressList, alertChannels, createdAt, updatedAt } = structuredClone(group);
    const { alertChannels: _old, ...kept } = current;
    this.groups.set(group.appName, {
      ...kept,
      title,
      addressType,
      addressList,
      ...(alertChannels === undefined ? {} : { alertChannels }),
      createdAt,
      updatedAt,
    });
  }

  async delete(appName: string): Promise<void> {
    this.existing(appName);
    this.groups.delete(appName);
    this.sealedTokens.delete(appName);
  }

  async setAccessToken(appName: string, sealed: string, setAt: number): Promise<void> {
    const current = this.existing(appName);
    this.sealedTokens.set(appName, sealed);
    this.groups.set(appName, { ...current, accessTokenSetAt: setAt, updatedAt: setAt });
  }

  async clearAccessToken(appName: string): Promise<void> {
    const { accessTokenSetAt: _setAt, ...rest } = this.existing(appName);
    this.sealedTokens.delete(appName);
    this.groups.set(appName, rest);
  }

  async getSealedAccessToken(appName: string): Promise<string | undefined> {
    return this.sealedTokens.get(appName);
  }

  private existing(appName: string): Group {
    const group = this.groups.get(appName);
    if (!group) throw new NotFoundError(`group ${appName} does not exist`);
    return group;
  }
}
