// Controller election (CLUSTER.md sections 1 and 7) through etcd's election recipe (etcd3's
// Election, keys under /quiver/election/controller/): every node campaigns with its node id, the
// oldest key wins. The winner's FenceToken (its key and that key's create revision) conditions
// every assignment write it makes (fenced.ts). Every node also observes the election, for
// GET /cluster's `leader`. A campaign that fails (its lease lost, etcd unreachable) is started
// again after a pause; a node that was controller stops being one at once.

import type { Campaign, ElectionObserver, Namespace } from 'etcd3';
import type { FenceToken } from './fenced.js';
import type { FromEtcdThread } from './messages.js';

const RETRY_MS = 500;

export class ControllerElection {
  readonly #ns: Namespace;
  readonly #nodeId: number;
  readonly #ttl: number;
  readonly #emit: (m: FromEtcdThread) => void;
  #campaign: Campaign | null = null;
  #observer: ElectionObserver | null = null;
  #token: FenceToken | null = null;
  #stopped = false;

  constructor(ns: Namespace, nodeId: number, ttlSeconds: number, emit: (m: FromEtcdThread) => void) {
    this.#ns = ns;
    this.#nodeId = nodeId;
    this.#ttl = ttlSeconds;
    this.#emit = emit;
  }

  /** This node's token while it is the controller, else null. */
  get token(): FenceToken | null {
    return this.#token;
  }

  start(): void {
    this.#campaignNow();
    void this.#observe();
  }

  #campaignNow(): void {
    if (this.#stopped) return;
    const campaign = this.#ns.election('controller', this.#ttl).campaign(String(this.#nodeId));
    this.#campaign = campaign;
    campaign.on('elected', () => {
      void (async () => {
        try {
          const key = await campaign.getCampaignKey();
          const kv = (await this.#ns.get(key.slice(this.#ns.prefix.length)).exec()).kvs[0];
          if (kv === undefined || this.#campaign !== campaign) return;
          this.#token = { key, revision: kv.create_revision };
          this.#emit({ type: 'controller', elected: true, revision: kv.create_revision });
        } catch (e) {
          this.#fail(campaign, e);
        }
      })();
    });
    campaign.on('error', (e) => this.#fail(campaign, e));
  }

  #fail(campaign: Campaign, e: unknown): void {
    if (this.#campaign !== campaign) return;
    this.#campaign = null;
    if (this.#token !== null) {
      this.#token = null;
      this.#emit({ type: 'controller', elected: false, revision: null });
    }
    campaign.resign().catch(() => undefined);
    if (this.#stopped) return;
    this.#emit({ type: 'log', level: 'warn', msg: 'controller campaign failed; campaigning again', fields: { err: e instanceof Error ? e.message : String(e) } });
    setTimeout(() => this.#campaignNow(), RETRY_MS);
  }

  async #observe(): Promise<void> {
    while (!this.#stopped) {
      try {
        const observer = await this.#ns.election('controller', this.#ttl).observe();
        this.#observer = observer;
        const publish = (): void => {
          const v = observer.leader();
          this.#emit({ type: 'leader', id: v === undefined ? null : Number(v) });
        };
        publish();
        observer.on('change', publish);
        await new Promise<void>((res) => {
          observer.once('error', () => res());
          observer.once('disconnected', () => res());
        });
        await observer.cancel().catch(() => undefined);
      } catch {
        // etcd unreachable: try again
      }
      if (!this.#stopped) await new Promise((r) => setTimeout(r, RETRY_MS));
    }
  }

  /** Resigns (the next node takes over at once) and stops observing. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#token = null;
    const c = this.#campaign;
    this.#campaign = null;
    await Promise.all([c?.resign().catch(() => undefined), this.#observer?.cancel().catch(() => undefined)]);
  }
}
