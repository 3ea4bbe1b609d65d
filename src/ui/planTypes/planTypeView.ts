// What a plan type is to the Plans tree and the Open Plan command: the plan's row, the rows below
// it, their parents (for reveal), the current step and how the plan is opened. One module per
// type, registered in ./index.ts under the kind of its state module (src/state/planTypes/).
import type * as vscode from 'vscode';
import type { PlanKind, PlanViewOf } from '../../state/planTypes';
import type { PlanRecord } from '../../state/planStore';
import type { IntentSource } from '../../app/intent/intentView';
import type { FieldNode, FoldNode, InfoNode, IntentNode, NodeIndex, PlanNode, PlanTreeNode, StepNode } from '../tree/nodes';

/** A row below a plan. */
export type PlanRowNode = StepNode | FieldNode | InfoNode | IntentNode | FoldNode;

export interface PlanRowContext {
  readonly nodes: NodeIndex;
  /** Where `_intent` plans get their verification (absent: shown as unknown types). */
  readonly intent?: IntentSource;
  /** The command a row runs to open its plan (a file outside the workspace is opened only so). */
  readonly openPlanCommand: string;
  /** Items plans with more steps than this fold their oldest done steps (0: never; src/state/planFold.ts). */
  readonly foldDoneStepsAfter?: () => number;
}

export interface PlanOpenContext {
  /** Opens the plan rendered as Markdown in the Markdown preview. */
  previewMarkdown(p: PlanRecord): Promise<vscode.Uri>;
  /** Opens the plan's raw JSON. */
  showRaw(p: PlanRecord): Promise<vscode.Uri | undefined>;
}

export interface PlanTypeView<K extends PlanKind> {
  /** The plan's own row. */
  planItem(ctx: PlanRowContext, node: PlanNode, p: PlanRecord, v: PlanViewOf<K>): vscode.TreeItem;
  /** The rows below the plan, or below one of its rows. */
  children(ctx: PlanRowContext, node: PlanNode | PlanRowNode, p: PlanRecord, v: PlanViewOf<K>): PlanTreeNode[];
  /** A row below the plan. */
  rowItem(ctx: PlanRowContext, node: PlanRowNode, p: PlanRecord, v: PlanViewOf<K>): vscode.TreeItem;
  /** The parent of a row below the plan (the plan node or another row). */
  parent(ctx: PlanRowContext, node: PlanRowNode, p: PlanRecord, v: PlanViewOf<K>): PlanTreeNode;
  /** The row of the plan's current step (PlanSummary.current), when it has one. */
  currentStep(ctx: PlanRowContext, p: PlanRecord, v: PlanViewOf<K>): StepNode | undefined;
  /** Opens the plan for reading (a preview, the file, the JSON); returns what was opened. */
  open(ctx: PlanOpenContext, p: PlanRecord, v: PlanViewOf<K>): Promise<vscode.Uri | undefined>;
}
