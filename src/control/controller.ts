// Controller election (docs/cluster.md sections 1 and 7) through etcd's election recipe (etcd3's
// Election, keys under /quiver/election/controller/): every node campaigns with its node id, the
// oldest key wins. The winner's FenceToken (its key and that key's create revision) conditions
// every assignment write it makes (fenced.ts). Every node also observes the election, for
// GET /cluster's `leader` (by its own watch: see #observe). A campaign that fails (its lease
// lost, etcd unreachable) is started again after a pause; a node that was controller stops
// being one at once.

import type { Campaign, IRangeResponse, Namespace } from 'etcd3';
import type { FenceToken } from './fenced.js';
import type { FromEtcdThread } from '../shared/cluster/messages.js';
import { PrefixMirror } from '../shared/cluster/prefix-mirror.js';

const RETRY_MS = 500;

export class ControllerElection {
  readonly #ns: Namespace;
  readonly #nodeId: number;
  readonly #ttl: number;
  readonly #emit: (m: FromEtcdThread) => void;
  #campaign: Campaign | null = null;
  readonly #observer: PrefixMirror;
  #token: FenceToken | null = null;
  #stopped = false;

  constructor(ns: Namespace, nodeId: number, ttlSeconds: number, emit: (m: FromEtcdThread) => void) {
    this.#ns = ns;
    this.#nodeId = nodeId;
    this.#ttl = ttlSeconds;
    this.#emit = emit;
    this.#observer = this.#observe();
  }

  /** This node's token while it is the controller, else null. */
  get token(): FenceToken | null {
    return this.#token;
  }

  start(): void {
    this.#campaignNow();
    void this.#observer.start();
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
          if (kv !== undefined) this.#elected(campaign, key, kv.create_revision);
        } catch (e) {
          this.#fail(campaign, e);
        }
      })();
    });
    campaign.on('error', (e) => this.#fail(campaign, e));
  }

  /** This node's campaign holds the oldest key: it is the controller, fenced by that key's creation. */
  #elected(campaign: Campaign, key: string, revision: string): void {
    if (this.#campaign !== campaign || this.#token !== null) return;
    this.#token = { key, revision };
    this.#emit({ type: 'controller', elected: true, revision });
  }

  /**
   * The oldest key under the prefix, as #observe read it: when it is this node's campaign's, the
   * node is elected whether or not the campaign said so. The campaign waits on a watch stream of
   * its own (etcd3 gives each election its own), which a frozen etcd member can hold silent, and
   * the watch guard cannot reach; #observe's watch is on the guarded stream.
   */
  async #claim(oldest: { key: Buffer; create_revision: string }): Promise<void> {
    const campaign = this.#campaign;
    if (campaign === null || this.#token !== null) return;
    const key = await campaign.getCampaignKey().catch(() => null);
    // The namespace hands keys back without its prefix; the campaign names its key with it.
    const oldestKey = this.#ns.prefix.toString('utf8') + oldest.key.toString('utf8');
    if (key !== null && oldestKey === key) this.#elected(campaign, key, oldest.create_revision);
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

  /**
   * The controller is the oldest key under the election prefix. etcd3's ElectionObserver is not
   * used: when several campaigns' keys arrive in one watch batch it takes the last (newest) as
   * leader and then watches only that key, so a node could name a wrong controller for as long as
   * that node lived (seen in the three-node test). Here every change under the prefix re-reads the
   * oldest key.
   */
  #observe(): PrefixMirror {
    const prefix = 'election/controller/';
    const fetch = (): Promise<IRangeResponse> => this.#ns.getAll().prefix(prefix).sort('Create', 'Ascend').limit(1).exec();
    const show = (r: IRangeResponse): void => {
      const kv = r.kvs[0];
      this.#emit({ type: 'leader', id: kv === undefined ? null : Number(kv.value.toString('utf8')) });
      if (kv !== undefined) void this.#claim(kv);
    };
    return new PrefixMirror(
      this.#ns,
      [
        {
          prefix,
          read: fetch,
          snapshot: show,
          watching: (watcher) => {
            // One re-read at a time, in order, so the last answer is the newest.
            let chain: Promise<unknown> = Promise.resolve();
            const reread = (): void => {
              chain = chain.then(async () => show(await fetch())).catch(() => undefined);
            };
            watcher.on('data', reread);
            watcher.on('connected', reread);
          },
        },
      ],
      // A watch etcd cancels is made again after a pause, from a new read; etcd unreachable: the same.
      { onLoss: 'restart-after-pause', retryMs: RETRY_MS },
    );
  }

  /** Resigns (the next node takes over at once) and stops observing. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#token = null;
    const c = this.#campaign;
    this.#campaign = null;
    await Promise.all([c?.resign().catch(() => undefined), this.#observer.stop()]);
  }
}
