// The rows VS Code holds for the Plans view, mirrored from its calls: each row it was given
// (getTreeItem) with what it showed, and the children it fetched (getChildren). VS Code drops a
// row's children when it refreshes the row (and fetches them again if the row is expanded: one
// more round trip to the workbench), so a refresh is narrowed to the rows that changed: a row
// whose own item and list of children are unchanged is not fired, its changed children are.
// No vscode import (TreeItems are read structurally): unit tested in plain Node.

/** What VS Code shows of a TreeItem (the fields it sends to the workbench). */
export interface ShownItem {
  label?: unknown;
  description?: unknown;
  tooltip?: unknown;
  iconPath?: unknown;
  resourceUri?: unknown;
  contextValue?: string;
  collapsibleState?: number;
  command?: { command: string; title: string; arguments?: unknown[] };
  accessibilityInformation?: { label: string };
  checkboxState?: unknown;
}

/** A string that differs when anything shown of the item differs (a value that cannot be written: always new). */
export function itemKey(t: ShownItem): string {
  try {
    return JSON.stringify([
      t.label,
      t.description,
      t.tooltip,
      t.iconPath,
      String(t.resourceUri ?? ''),
      t.contextValue,
      t.collapsibleState,
      t.command && [t.command.command, t.command.title, t.command.arguments],
      t.accessibilityInformation?.label,
      t.checkboxState,
    ]);
  } catch {
    return `\u0000${Math.random()}`;
  }
}

export interface RowSource<N extends { id: string }> {
  item(node: N): ShownItem;
  children(node: N): readonly N[];
}

export class HeldRows {
  private readonly items = new Map<string, string>();
  private readonly children = new Map<string, readonly string[]>();

  get size(): number {
    return this.items.size;
  }
  handedOut(id: string, item: ShownItem): void {
    this.items.set(id, itemKey(item));
  }
  /** VS Code fetches the children of `parentId` (undefined: the top level): it dropped the old ones. */
  childrenFetching(parentId: string | undefined): void {
    if (parentId === undefined) this.clear();
    else this.dropBelow(parentId);
  }
  childrenFetched(parentId: string | undefined, rows: readonly { id: string }[]): void {
    this.children.set(
      parentId ?? '',
      rows.map((r) => r.id),
    );
  }
  /**
   * These rows are about to be fired (undefined: all). Returns whether VS Code holds any of them
   * (then it fetches them); what it holds below them is dropped, as VS Code drops it.
   */
  fired(ids: readonly string[] | undefined): boolean {
    if (ids === undefined) {
      const any = this.items.size > 0;
      this.clear();
      return any;
    }
    let any = false;
    for (const id of ids) {
      if (!this.items.has(id)) continue;
      any = true;
      this.dropBelow(id);
    }
    return any;
  }
  /**
   * The rows to fire for a change of `node`: the node itself when VS Code does not hold it, when
   * its item changed or its list of children did; otherwise, recursively, those of the children
   * VS Code holds that changed (none: nothing to fire).
   */
  narrow<N extends { id: string }>(node: N, rows: RowSource<N>): N[] {
    const shown = this.items.get(node.id);
    if (shown === undefined || shown !== itemKey(rows.item(node))) return [node];
    const held = this.children.get(node.id);
    if (!held) return []; // VS Code holds none of its children: it fetches them when it needs them
    const now = rows.children(node);
    if (now.length !== held.length || now.some((c, i) => c.id !== held[i])) return [node];
    return now.flatMap((c) => this.narrow(c, rows));
  }

  private clear(): void {
    this.items.clear();
    this.children.clear();
  }
  private dropBelow(id: string): void {
    const prefix = `${id}/`;
    for (const x of this.items.keys()) if (x.startsWith(prefix)) this.items.delete(x);
    this.children.delete(id);
    for (const x of this.children.keys()) if (x.startsWith(prefix)) this.children.delete(x);
  }
}
