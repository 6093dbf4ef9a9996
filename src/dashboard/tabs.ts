// The tabs: one shown at a time. A tab's module registers what opening it does, so modules can
// open each other's tabs (Browse, Detail, Find similar) without importing each other.

import { $, clearMessage } from './dom.js';

export const TABS = ['collections', 'detail', 'points', 'query', 'map', 'console', 'access'] as const;
export type Tab = (typeof TABS)[number];

const opened = new Map<Tab, (collection?: string) => void>();

/** What opening a tab does, given the collection it was opened for (if any). */
export function whenOpened(tab: Tab, action: (collection?: string) => void): void {
  opened.set(tab, action);
}

export function openTab(tab: Tab, collection?: string): void {
  clearMessage();
  for (const t of TABS) {
    $(`tab-${t}`).hidden = t !== tab;
    document.querySelector(`nav button[data-tab="${t}"]`)?.classList.toggle('active', t === tab);
  }
  opened.get(tab)?.(collection);
}

/** A collection select set to a collection, when it lists it. */
export function choose(selectId: string, collection: string | undefined): boolean {
  if (collection === undefined) return false;
  const sel = $<HTMLSelectElement>(selectId);
  sel.value = collection;
  return sel.value === collection;
}
